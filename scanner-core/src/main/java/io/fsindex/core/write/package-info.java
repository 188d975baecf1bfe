/**
 * Internal, not API: the write protocol. {@code SqlFileSink} coordinates; each step of applying a listing is a class
 * of its own (see docs/design.md, "Where the code lives"). Public types here may change in any release.
 */
package io.fsindex.core.write;
