package dev.hicachesync.tier;

import dev.hicachesync.env.TransferEvent;
import java.nio.ByteBuffer;
import jcuda.Pointer;
import jcuda.runtime.JCuda;
import jcuda.runtime.cudaDeviceProp;
import jcuda.runtime.cudaEvent_t;
import jcuda.runtime.cudaMemcpyKind;
import jcuda.runtime.cudaStream_t;

/**
 * A {@link DeviceTier} on a real GPU through JCuda: device pages from {@code cudaMalloc} in [layer][page]
 * layout, a pinned host staging mirror, {@code cudaMemcpyAsync} on one stream, completion by {@code
 * cudaEvent}.
 *
 * <p>Why a staging mirror: the {@link HostPool} is ordinary direct memory, and an asynchronous copy needs
 * pinned memory. Each device page owns the staging slot at the same offset, so in-flight copies never
 * share a slot (two copies of one device page at once would already break INV-7). Device → host copies
 * land in staging and are copied into the host pool when the event is first observed done; host → device
 * copies fill staging at issue. The cost is pinned memory equal to the device pool.
 *
 * <p>Issue from one thread (the scheduler); events may be polled from any thread. Open through {@link
 * DeviceTiers#open}, which probes CUDA first.
 */
public final class JCudaDeviceTier implements DeviceTier {
  private final PageGeometry geometry;
  private final int device;
  private final String deviceName;
  private final Pointer devicePtr = new Pointer();
  private final Pointer stagingPtr = new Pointer();
  private final ByteBuffer staging;
  private final cudaStream_t stream = new cudaStream_t();
  private boolean closed;

  /** Allocates a pool of {@code capacityPages} pages on CUDA device {@code device}. Needs a working driver. */
  public JCudaDeviceTier(int capacityPages, int layers, int layerBytes, int device) {
    this.geometry = new PageGeometry(capacityPages, layers, layerBytes);
    this.device = device;
    long total = geometry.totalBytes();
    CudaCalls.check(JCuda.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
    cudaDeviceProp prop = new cudaDeviceProp();
    CudaCalls.check(JCuda.cudaGetDeviceProperties(prop, device), "cudaGetDeviceProperties");
    this.deviceName = prop.getName();
    CudaCalls.check(JCuda.cudaMalloc(devicePtr, total), "cudaMalloc(" + total + ")");
    CudaCalls.check(JCuda.cudaHostAlloc(stagingPtr, total, JCuda.cudaHostAllocDefault), "cudaHostAlloc");
    this.staging = stagingPtr.getByteBuffer(0, total);
    CudaCalls.check(JCuda.cudaStreamCreate(stream), "cudaStreamCreate");
    CudaCalls.check(JCuda.cudaMemset(devicePtr, 0, total), "cudaMemset");
  }

  @Override
  public int capacityPages() {
    return geometry.pages();
  }

  @Override
  public int layers() {
    return geometry.layers();
  }

  @Override
  public int layerBytes() {
    return geometry.layerBytes();
  }

  private ByteBuffer stagingLayer(int page, int layer) {
    return staging.slice(geometry.layerFirstOffset(page, layer), geometry.layerBytes());
  }

  /** Enqueues the per-layer copies of {@code pages} between staging and device on the stream. */
  private void enqueue(int[] pages, int kind) {
    // The current device is per thread: the issuing thread need not be the one that built the tier.
    CudaCalls.check(JCuda.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
    for (int p : pages) {
      for (int l = 0; l < geometry.layers(); l++) {
        long off = geometry.layerFirstOffset(p, l);
        Pointer dev = devicePtr.withByteOffset(off);
        Pointer host = stagingPtr.withByteOffset(off);
        boolean toHost = kind == cudaMemcpyKind.cudaMemcpyDeviceToHost;
        CudaCalls.check(JCuda.cudaMemcpyAsync(toHost ? host : dev, toHost ? dev : host,
            geometry.layerBytes(), kind, stream), "cudaMemcpyAsync");
      }
    }
  }

  private CudaCopy record(Runnable epilogue) {
    cudaEvent_t event = new cudaEvent_t();
    CudaCalls.check(JCuda.cudaEventCreate(event), "cudaEventCreate");
    CudaCalls.check(JCuda.cudaEventRecord(event, stream), "cudaEventRecord");
    return new CudaCopy(event, epilogue);
  }

  @Override
  public void write(int page, ByteBuffer src) {
    geometry.checkPage(page);
    Transfers.checkRoom(src, geometry.pageBytes());
    for (int l = 0; l < geometry.layers(); l++) {
      stagingLayer(page, l).put(src.slice(src.position(), geometry.layerBytes()));
      src.position(src.position() + geometry.layerBytes());
    }
    enqueue(new int[] {page}, cudaMemcpyKind.cudaMemcpyHostToDevice);
    CudaCalls.check(JCuda.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  }

  @Override
  public void read(int page, ByteBuffer dst) {
    geometry.checkPage(page);
    Transfers.checkRoom(dst, geometry.pageBytes());
    enqueue(new int[] {page}, cudaMemcpyKind.cudaMemcpyDeviceToHost);
    CudaCalls.check(JCuda.cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    for (int l = 0; l < geometry.layers(); l++) {
      dst.put(stagingLayer(page, l));
    }
  }

  @Override
  public TransferEvent copyToHost(int[] devicePages, HostPool host, int[] hostPages) {
    Transfers.check(geometry, devicePages, host, hostPages);
    int[] dev = devicePages.clone();
    int[] hst = hostPages.clone();
    enqueue(dev, cudaMemcpyKind.cudaMemcpyDeviceToHost);
    return record(() -> {
      for (int i = 0; i < dev.length; i++) {
        for (int l = 0; l < geometry.layers(); l++) {
          host.layerView(hst[i], l).put(stagingLayer(dev[i], l));
        }
      }
    });
  }

  @Override
  public TransferEvent copyFromHost(HostPool host, int[] hostPages, int[] devicePages) {
    Transfers.check(geometry, devicePages, host, hostPages);
    for (int i = 0; i < devicePages.length; i++) {
      for (int l = 0; l < geometry.layers(); l++) {
        stagingLayer(devicePages[i], l).put(host.layerView(hostPages[i], l));
      }
    }
    enqueue(devicePages, cudaMemcpyKind.cudaMemcpyHostToDevice);
    return record(null);
  }

  @Override
  public String describe() {
    return "jcuda device " + device + " (" + deviceName + "): " + geometry.pages() + " pages x "
        + geometry.layers() + " layers x " + geometry.layerBytes() + " B";
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    JCuda.cudaStreamSynchronize(stream);
    JCuda.cudaStreamDestroy(stream);
    JCuda.cudaFreeHost(stagingPtr);
    JCuda.cudaFree(devicePtr);
  }

  @Override
  public String toString() {
    return describe();
  }
}
