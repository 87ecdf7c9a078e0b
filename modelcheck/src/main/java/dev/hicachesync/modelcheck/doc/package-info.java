/**
 * The parts of the user docs that are written from the catalogue rather than by hand: {@link
 * dev.hicachesync.modelcheck.doc.CatalogueTable} renders a tier of {@code modelcheck/models/catalogue.json}
 * as a markdown table, and {@link dev.hicachesync.modelcheck.doc.GeneratedBlocks} keeps such tables
 * between their markers in {@code docs/reference/catalogue.md}. The docs tests of this module fail when
 * a generated block and the catalogue differ.
 */
package dev.hicachesync.modelcheck.doc;
