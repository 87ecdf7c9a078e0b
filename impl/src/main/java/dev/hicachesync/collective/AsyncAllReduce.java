package dev.hicachesync.collective;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * A collective issued without waiting for it, as torch's {@code all_reduce(..., async_op=True)}: the call runs on
 * a thread of its own, on groups of its own (the channel "async" of {@code spec/HiCacheSync.tla}: no other thread
 * of the rank pairs its calls with it), and the caller gets a {@link Work} handle whose {@link Work#waitResult()}
 * is {@code work.wait()}. Version {@code pipelined} (proposal #39903) issues its event check (S123) so and
 * consumes the result at the next step.
 *
 * <p>Why a thread per call: the caller waits on one handle before it issues the next (at most one call in
 * flight per rank), so calls on the group stay in the caller's order, and no thread outlives its call. A member
 * that never issues its call leaves its peers' calls to fail at the fabric's timeout, which the handle's wait
 * then throws ({@link CollectiveTimeoutException}), as a stuck {@code work.wait()} would hang.
 */
public final class AsyncAllReduce {
  private final String name;

  /** Creates the asynchronous channel of the rank named {@code name} (thread names). */
  public AsyncAllReduce(String name) {
    this.name = name;
  }

  /**
   * Starts {@code collective} (a reduction on this channel's own groups; it blocks until every member joins) on a
   * thread of its own and returns its handle at once. Caller: the issuing thread.
   */
  public Work start(Supplier<long[]> collective) {
    CompletableFuture<long[]> result = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        result.complete(collective.get());
      } catch (RuntimeException | Error e) {
        result.completeExceptionally(e);
      }
    }, name + "-async");
    t.setDaemon(true); // a call whose peers never join ends at the fabric's timeout; nothing waits for the thread
    t.start();
    return new Work(result);
  }

  /** The handle of one asynchronous collective (torch's {@code Work}). */
  public static final class Work {
    private final CompletableFuture<long[]> result;

    private Work(CompletableFuture<long[]> result) {
      this.result = result;
    }

    /** Whether the collective has completed (or failed). Any thread. */
    public boolean isCompleted() {
      return result.isDone();
    }

    /**
     * Waits until the collective completes and returns its result ({@code work.wait()}); rethrows, on the waiting
     * thread, a collective's failure (a mismatch, or the timeout of a member that never joined).
     */
    public long[] waitResult() {
      try {
        return result.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting on an asynchronous collective", e);
      } catch (ExecutionException | CompletionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CollectiveException c) {
          throw c.rethrownFor("the wait on an asynchronous collective");
        }
        if (cause instanceof RuntimeException r) {
          throw r;
        }
        throw new IllegalStateException(cause);
      }
    }
  }
}
