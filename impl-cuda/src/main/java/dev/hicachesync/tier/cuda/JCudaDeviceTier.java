package dev.hicachesync.tier.cuda;

import dev.hicachesync.env.TransferEvent;
import dev.hicachesync.tier.DeviceTier;
import dev.hicachesync.tier.HostPool;
import dev.hicachesync.tier.PageGeometry;
import dev.hicachesync.tier.Transfers;
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
 * <p>Two non-blocking streams: {@code stream} carries the asynchronous copies, {@code syncStream} the
 * synchronous {@link #read}/{@link #write}, which wait for their own stream only, so a copy in flight stays
 * in flight ({@link DeviceTier}'s rule 4; synchronizing the copy stream there, as an earlier version did, made
 * every earlier copy synchronous). Non-blocking: neither stream serializes with CUDA's legacy default
 * stream. Within {@link DeviceTier}'s rule 3 this tier reads a host → device source at issue (into
 * staging), and writes a device → host destination when the event is first observed done.
 *
 * <p>Issue from one thread (the scheduler); events may be polled from any thread. Open through {@link
 * dev.hicachesync.tier.DeviceTiers#open}, which probes CUDA first (through {@link JCudaDeviceTierProvider}).
 */
public final class JCudaDeviceTier implements DeviceTier {
  private final PageGeometry geometry;
  private final int device;
  private final String deviceName;
  private final Pointer devicePtr = new Pointer();
  private final Pointer stagingPtr = new Pointer();
  private final ByteBuffer staging;
  /** The copy engine's stream: every {@link #copyToHost} / {@link #copyFromHost}. */
  private final cudaStream_t stream = new cudaStream_t();
  /** The synchronous {@link #read} / {@link #write} only. */
  private final cudaStream_t syncStream = new cudaStream_t();
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
    CudaCalls.check(JCuda.cudaStreamCreateWithFlags(stream, JCuda.cudaStreamNonBlocking),
        "cudaStreamCreateWithFlags");
    CudaCalls.check(JCuda.cudaStreamCreateWithFlags(syncStream, JCuda.cudaStreamNonBlocking),
        "cudaStreamCreateWithFlags");
    CudaCalls.check(JCuda.cudaMemset(devicePtr, 0, total), "cudaMemset");
    // The memset runs on the legacy default stream, which the non-blocking streams do not wait for.
    CudaCalls.check(JCuda.cudaDeviceSynchronize(), "cudaDeviceSynchronize");
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

  /** Enqueues the per-layer copies of {@code pages} between staging and device on {@code on}. */
  private void enqueue(int[] pages, int kind, cudaStream_t on) {
    // The current device is per thread: the issuing thread need not be the one that built the tier.
    CudaCalls.check(JCuda.cudaSetDevice(device), "cudaSetDevice(" + device + ")");
    for (int p : pages) {
      for (int l = 0; l < geometry.layers(); l++) {
        long off = geometry.layerFirstOffset(p, l);
        Pointer dev = devicePtr.withByteOffset(off);
        Pointer host = stagingPtr.withByteOffset(off);
        boolean toHost = kind == cudaMemcpyKind.cudaMemcpyDeviceToHost;
        CudaCalls.check(JCuda.cudaMemcpyAsync(toHost ? host : dev, toHost ? dev : host,
            geometry.layerBytes(), kind, on), "cudaMemcpyAsync");
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
    enqueue(new int[] {page}, cudaMemcpyKind.cudaMemcpyHostToDevice, syncStream);
    CudaCalls.check(JCuda.cudaStreamSynchronize(syncStream), "cudaStreamSynchronize");
  }

  @Override
  public void read(int page, ByteBuffer dst) {
    geometry.checkPage(page);
    Transfers.checkRoom(dst, geometry.pageBytes());
    enqueue(new int[] {page}, cudaMemcpyKind.cudaMemcpyDeviceToHost, syncStream);
    CudaCalls.check(JCuda.cudaStreamSynchronize(syncStream), "cudaStreamSynchronize");
    for (int l = 0; l < geometry.layers(); l++) {
      dst.put(stagingLayer(page, l));
    }
  }

  @Override
  public TransferEvent copyToHost(int[] devicePages, HostPool host, int[] hostPages) {
    Transfers.check(geometry, devicePages, host, hostPages);
    int[] dev = devicePages.clone();
    int[] hst = hostPages.clone();
    enqueue(dev, cudaMemcpyKind.cudaMemcpyDeviceToHost, stream);
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
    enqueue(devicePages, cudaMemcpyKind.cudaMemcpyHostToDevice, stream);
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
    JCuda.cudaStreamSynchronize(syncStream);
    JCuda.cudaStreamDestroy(stream);
    JCuda.cudaStreamDestroy(syncStream);
    JCuda.cudaFreeHost(stagingPtr);
    JCuda.cudaFree(devicePtr);
  }

  @Override
  public String toString() {
    return describe();
  }
}
