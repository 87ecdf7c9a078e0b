package dev.hicachesync.cluster;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG4;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/** The JGroups protocol stack a {@link ClusterNode} opens its channel with. */
final class ClusterStack {
  private ClusterStack() {}

  /**
   * The protocol stack: TCP bound to the configured host (loopback in tests: nothing leaves the machine), a
   * fixed list of peers instead of multicast discovery, socket-based failure detection (a killed process closes
   * its sockets: noticed at once) plus heartbeats (a stopped process: noticed after the timeout), reliable FIFO
   * delivery and fragmentation.
   */
  static Protocol[] of(ClusterConfig cfg) throws Exception {
    InetAddress host = InetAddress.getByName(cfg.host());
    List<InetSocketAddress> peers = new ArrayList<>();
    for (int p : cfg.ports()) {
      peers.add(new InetSocketAddress(host, p));
    }
    long heartbeatTimeout = Math.max(2_000, cfg.timeout().toMillis());
    return new Protocol[] {
      new TCP().setBindAddress(host).setBindPort(cfg.ports().get(cfg.rank())).setPortRange(0),
      new TCPPING().setInitialHosts(peers).setPortRange(0),
      new MERGE3(),
      new FD_SOCK2().setBindAddress(host),
      new FD_ALL3().setTimeout(heartbeatTimeout).setInterval(Math.max(200, heartbeatTimeout / 8)),
      new VERIFY_SUSPECT2().setTimeout(500),
      new NAKACK2(),
      new UNICAST3(),
      new STABLE(),
      new GMS().setJoinTimeout(1_000).printLocalAddress(false),
      new FRAG4()
    };
  }
}
