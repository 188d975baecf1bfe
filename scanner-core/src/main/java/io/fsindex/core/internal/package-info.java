/**
 * Internal, not API: plumbing shared by the other packages (the database and its retried transactions, rendered
 * statements, settings parsing). Public only so sibling packages can reach it; it may change in any release.
 */
package io.fsindex.core.internal;
