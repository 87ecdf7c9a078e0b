package dev.hicachesync.controller;

import dev.hicachesync.env.TransferEvent;

/** An ack that waits for one device↔host copy: its completion event is what S1/S2 count. */
interface PendingCopy {

  /** Returns the copy's completion event (set done by the copy engine, any thread). */
  TransferEvent event();
}
