package dev.horae.gate.runtime;

/**
 * Where a commit landed: the thread and its monotonic committed-fact count after the commit.
 *
 * @param threadId the thread
 * @param sequence the thread's commit sequence (1 for the first commit)
 */
public record CommitRecord(String threadId, long sequence) {}
