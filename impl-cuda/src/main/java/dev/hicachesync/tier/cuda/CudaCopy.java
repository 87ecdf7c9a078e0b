package dev.hicachesync.tier.cuda;

import dev.hicachesync.env.TransferEvent;
import jcuda.runtime.JCuda;
import jcuda.runtime.cudaError;
import jcuda.runtime.cudaEvent_t;

/**
 * A copy on a CUDA stream, complete when its recorded {@code cudaEvent} is; then a host-side epilogue
 * (staging → host pool for device-to-host copies) runs once and the event is destroyed.
 *
 * <p>Any thread; the epilogue runs under this object's lock, which is held only for one {@code
 * cudaEventQuery} and the epilogue, never for a wait.
 */
final class CudaCopy implements TransferEvent {
  /** Null once completed and destroyed. Guarded by this. */
  private cudaEvent_t event;
  /** Host-side work after the device copy; null once run. Guarded by this. */
  private Runnable epilogue;
  private volatile boolean done;

  CudaCopy(cudaEvent_t event, Runnable epilogue) {
    this.event = event;
    this.epilogue = epilogue;
  }

  @Override
  public boolean isDone() {
    if (done) {
      return true;
    }
    synchronized (this) {
      if (done) {
        return true;
      }
      int rc = JCuda.cudaEventQuery(event);
      if (rc == cudaError.cudaErrorNotReady) {
        return false;
      }
      CudaCalls.check(rc, "cudaEventQuery");
      complete();
      return true;
    }
  }

  /**
   * Waits by polling {@link #isDone()} (parking 20 µs between polls). Why not {@code cudaEventSynchronize}
   * under the lock, as an earlier version did: that held the monitor for the whole copy, so a concurrent {@link
   * #isDone()} from another thread blocked too, against {@link TransferEvent}'s "never blocks"; and outside
   * the lock the event could be destroyed under the waiter by the thread that completes it.
   */
  @Override
  public void await() {
    while (!isDone()) {
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while awaiting a CUDA copy");
      }
      java.util.concurrent.locks.LockSupport.parkNanos(20_000L);
    }
  }

  /** Runs the epilogue and frees the event; caller holds the lock. */
  private void complete() {
    if (epilogue != null) {
      epilogue.run();
      epilogue = null;
    }
    JCuda.cudaEventDestroy(event);
    event = null;
    done = true;
  }
}
