package dev.hicachesync.tier;

import dev.hicachesync.env.TransferEvent;
import jcuda.runtime.JCuda;
import jcuda.runtime.cudaError;
import jcuda.runtime.cudaEvent_t;

/**
 * A copy on a CUDA stream, complete when its recorded {@code cudaEvent} is; then a host-side epilogue
 * (staging → host pool for device-to-host copies) runs once and the event is destroyed.
 *
 * <p>Any thread; the epilogue runs under this object's lock.
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

  @Override
  public void await() {
    synchronized (this) {
      if (done) {
        return;
      }
      CudaCalls.check(JCuda.cudaEventSynchronize(event), "cudaEventSynchronize");
      complete();
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
