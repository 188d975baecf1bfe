/** Internal, not API: creating, upgrading and checking the schema. */
package io.fsindex.core.schema;
