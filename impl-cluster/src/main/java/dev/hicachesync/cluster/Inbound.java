package dev.hicachesync.cluster;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;

/**
 * What arrives at a {@link ClusterNode}, dispatched: JGroups' delivery threads call {@link #receive} and {@link
 * #viewAccepted}, which hand each message to its owner ({@link Membership}, {@link Liveness}, {@link Mailboxes})
 * under the node's lock and wake every waiter.
 */
final class Inbound implements Receiver {
  private final ClusterConfig cfg;
  private final JChannel channel;
  private final ReentrantLock lock;
  private final Condition changed;
  private final Membership members;
  private final Liveness liveness;
  private final Mailboxes mail;

  Inbound(ClusterConfig cfg, JChannel channel, ReentrantLock lock, Condition changed, Membership members,
      Liveness liveness, Mailboxes mail) {
    this.cfg = cfg;
    this.channel = channel;
    this.lock = lock;
    this.changed = changed;
    this.members = members;
    this.liveness = liveness;
    this.mail = mail;
  }

  @Override
  public void receive(Message msg) {
    Wire.Decoded d;
    try {
      d = Wire.read(msg.getArray(), msg.getOffset(), msg.getLength());
    } catch (RuntimeException e) {
      return; // not ours: another application on the cluster name; nothing to pair it with
    }
    if (d.type() == Wire.HELLO) {
      // Answer a peer's first hello directly, before acting on it: greetings sent on a view change can
      // miss a peer whose view arrives later, and a node that refuses the handshake closes at once, so
      // without this answer the peer would wait out its start-up timeout instead of refusing too.
      boolean first;
      lock.lock();
      try {
        first = members.firstHelloLocked(msg.getSrc());
      } finally {
        lock.unlock();
      }
      if (first) {
        sendHello(msg.getSrc());
      }
    }
    lock.lock();
    try {
      liveness.heardLocked(d.rank()); // a PIPE's rank is its sender, as every other type's
      switch (d.type()) {
        case Wire.BEAT:
          return; // heard: nobody waits on a beat
        case Wire.LOST:
          liveness.reportedSilentLocked(d.to());
          break;
        case Wire.HELLO:
          members.helloLocked(msg.getSrc(), d.rank(), d.identity());
          break;
        case Wire.CALL:
          mail.contributionsLocked(d.group(), d.seq()).put(d.rank(), d.call());
          break;
        case Wire.PIPE:
          mail.inboxLocked(d.rank(), d.to()).addLast(d.values());
          break;
        default:
          break;
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void viewAccepted(View view) {
    lock.lock();
    try {
      members.viewLocked(view);
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    // A process that joined after our first hello has not heard it: say it again to everyone.
    sendHello(null);
  }

  /** Sends this node's hello to {@code to} (null: everyone), past the bundler: it must leave before a close. */
  private void sendHello(Address to) {
    try {
      Message m = new BytesMessage(to, Wire.hello(cfg.rank(), cfg.identity()));
      m.setFlag(Message.Flag.DONT_BUNDLE);
      channel.send(m);
    } catch (Exception e) {
      // closing; nothing to greet
    }
  }
}
