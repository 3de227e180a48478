package dev.spacebench.plan;

import java.util.List;

/**
 * File transfers: for each size, {@code warmups} then {@code n} iterations of one upload followed
 * by one download of a fresh file of random bytes.
 *
 * @param sizes sizes and their iteration counts
 * @param warmups warm-up iterations per size, recorded but excluded from the figures
 * @param bulkThresholdBytes files of at least this many bytes use the bulk lane (shared
 *     directory), smaller ones the gRPC stream
 * @param chunkBytes bytes per gRPC stream message
 */
public record FilePlan(List<FileSize> sizes, Integer warmups, Long bulkThresholdBytes, Integer chunkBytes) {
}
