/**
 * The file session store's machinery: one open session folder ({@link
 * dev.horae.store.internal.SessionFolder}) with its exclusive lock ({@link
 * dev.horae.store.internal.FolderLock}), its header file ({@link
 * dev.horae.store.internal.HeaderFile}), the replay of its event file with torn-tail
 * classification ({@link dev.horae.store.internal.LogScanner}) and the group commit ({@code
 * GroupCommit}) that lets concurrent persists of one session share one fsync, over an event file
 * ({@link dev.horae.store.internal.EventFile}) that survives a caller's interrupt. Folder names
 * are session ids made safe for a file system ({@link dev.horae.store.internal.FolderNames});
 * {@link dev.horae.store.internal.Forcer} is the seam through which every fsync goes, so tests can
 * count and hold them. {@link dev.horae.store.internal.SessionTables} holds the JDBC store's
 * schema and statements. {@link dev.horae.store.internal.SideTask} runs part of a long load (the
 * second half of an event file, the decoding of JDBC rows) on a thread of its own.
 */
@NullMarked
package dev.horae.store.internal;

import org.jspecify.annotations.NullMarked;
