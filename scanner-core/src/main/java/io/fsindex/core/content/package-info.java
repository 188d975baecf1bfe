/**
 * Internal, not API: content hashing. {@code ContentIndexer} coordinates, {@code ContentStore} is the database side,
 * {@code ContentStatements} renders its SQL, {@code ContentHasher} reads files; {@code GarbageCollector} drops
 * content no row refers to.
 */
package io.fsindex.core.content;
