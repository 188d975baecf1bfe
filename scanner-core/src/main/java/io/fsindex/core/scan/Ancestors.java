package io.fsindex.core.scan;

/** A directory's identity and its parent's, up to the scan root's trunk: what a followed link must not lead back to. */
record Ancestors(Object fileKey, Ancestors parent) {
    boolean contains(Object key) {
        for (Ancestors a = this; a != null; a = a.parent) {
            if (key != null && key.equals(a.fileKey)) {
                return true;
            }
        }
        return false;
    }
}
