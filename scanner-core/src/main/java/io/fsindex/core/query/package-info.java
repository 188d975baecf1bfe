/** Internal, not API: the read queries behind lookups, listings, searches and reports. */
package io.fsindex.core.query;
