/** Internal, not API: the change feed, as a scan writes it and as readers page through it. */
package io.fsindex.core.feed;
