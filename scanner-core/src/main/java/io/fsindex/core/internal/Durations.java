package io.fsindex.core.internal;

import io.fsindex.api.FsIndexConfigurationException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads durations the way people write them, for every fsindex setting and command-line option that takes one: a
 * number and a unit, possibly several ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 7d}, {@code 2w},
 * {@code 250ms}), a bare {@code 0}, or ISO-8601 ({@code PT1H}, {@code P7D}). Units are {@code ms}, {@code s},
 * {@code m} (minutes), {@code h}, {@code d} and {@code w}, in either case.
 */
public final class Durations {
    /** What a duration may look like, for error messages. */
    public static final String ACCEPTED = "a duration such as 90s, 5m, 1h30m or 7d (units ms, s, m, h, d, w),"
            + " or ISO-8601 such as PT1H";

    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d|w)");

    private Durations() {
    }

    /**
     * Parses {@code text} as a duration.
     *
     * @param text the duration as written, e.g. {@code 1h30m} or {@code PT1H30M}; surrounding blanks are ignored
     * @return the duration; negative only if an ISO-8601 text says so
     * @throws FsIndexConfigurationException if {@code text} is not a duration (the message quotes it and says what
     *                                       is accepted)
     */
    public static Duration parse(String text) {
        if (text == null || text.isBlank()) {
            throw new FsIndexConfigurationException("no duration given; expected " + ACCEPTED);
        }
        String v = text.strip().toLowerCase(Locale.ROOT);
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        try {
            if (v.startsWith("p") || v.startsWith("-p") || v.startsWith("+p")) {
                return Duration.parse(v.toUpperCase(Locale.ROOT));
            }
            Matcher m = PART.matcher(v);
            Duration d = Duration.ZERO;
            int end = 0;
            while (end < v.length() && m.find(end) && m.start() == end) {
                long n = Long.parseLong(m.group(1));
                d = d.plus(switch (m.group(2)) {
                    case "ms" -> Duration.ofMillis(n);
                    case "s" -> Duration.ofSeconds(n);
                    case "m" -> Duration.ofMinutes(n);
                    case "h" -> Duration.ofHours(n);
                    case "d" -> Duration.ofDays(n);
                    default -> Duration.ofDays(Math.multiplyExact(7, n));
                });
                end = m.end();
            }
            if (end == 0 || end != v.length()) {
                throw new FsIndexConfigurationException("'" + text + "' is not a duration" + hint(v) + "; expected "
                        + ACCEPTED);
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new FsIndexConfigurationException("'" + text + "' is not a duration; expected " + ACCEPTED, e);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new FsIndexConfigurationException("'" + text + "' is too long a duration", e);
        }
    }

    private static String hint(String v) {
        return v.chars().allMatch(Character::isDigit) ? " (a number needs a unit, e.g. " + v + "s)" : "";
    }
}
