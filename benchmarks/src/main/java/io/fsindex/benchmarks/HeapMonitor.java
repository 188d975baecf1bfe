package io.fsindex.benchmarks;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Measures the heap of one scenario in this JVM. Two figures, because they answer different questions:
 * <ul>
 *   <li><b>peak</b>: the most heap in use at any moment (the largest "before" of any collection, and the pools' peak
 *   usage, which also catches the moment just before the scenario ended). It is bounded by {@code -Xmx} and mostly
 *   shows how far the collector let garbage pile up.</li>
 *   <li><b>live</b>: the most heap still in use right <em>after</em> a collection, an upper bound of what the scenario
 *   kept reachable. This is the figure that must not grow with the number of entries. It is unknown (-1) when no
 *   collection ran during the scenario, which means the scenario allocated less than the young generation.</li>
 * </ul>
 * One monitor measures one scenario at a time.
 */
final class HeapMonitor implements AutoCloseable {
    private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP).toList();
    private final AtomicLong peakBeforeGc = new AtomicLong();
    private final AtomicLong liveAfterGc = new AtomicLong(-1);
    private final NotificationListener listener = this::onNotification;
    private volatile boolean measuring;

    /** What one scenario used, in bytes; {@code live} is -1 when no collection ran. */
    record Usage(long peak, long live) {
        static final Usage NONE = new Usage(-1, -1);
    }

    HeapMonitor() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(listener, null, null);
            }
        }
    }

    /** Starts measuring: collects what earlier scenarios left behind, then clears the peaks. */
    void begin() {
        measuring = false;
        System.gc();
        heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
        peakBeforeGc.set(0);
        liveAfterGc.set(-1);
        measuring = true;
    }

    /** Stops measuring and returns what the scenario used since {@link #begin()}. */
    Usage end() {
        measuring = false;
        long poolPeaks = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage peak = pool.getPeakUsage();
            poolPeaks += peak == null ? 0 : peak.getUsed();
        }
        // The pools peak at different moments, so their sum overstates; never report more than the heap can hold.
        long max = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        long peak = Math.max(peakBeforeGc.get(), max > 0 ? Math.min(poolPeaks, max) : poolPeaks);
        return new Usage(peak, liveAfterGc.get());
    }

    private void onNotification(Notification n, Object handback) {
        if (!measuring || !GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        if ("System.gc()".equals(info.getGcCause())) {
            return; // begin()'s own collection, whose notification may arrive after measuring started
        }
        long before = sum(info.getGcInfo().getMemoryUsageBeforeGc());
        long after = sum(info.getGcInfo().getMemoryUsageAfterGc());
        peakBeforeGc.accumulateAndGet(before, Math::max);
        liveAfterGc.accumulateAndGet(after, Math::max);
    }

    private long sum(Map<String, MemoryUsage> usage) {
        long total = 0;
        for (MemoryPoolMXBean pool : heapPools) {
            MemoryUsage u = usage.get(pool.getName());
            total += u == null ? 0 : u.getUsed();
        }
        return total;
    }

    @Override
    public void close() {
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter) {
                try {
                    emitter.removeNotificationListener(listener);
                } catch (javax.management.ListenerNotFoundException ignored) {
                    // never added to this collector
                }
            }
        }
    }
}
