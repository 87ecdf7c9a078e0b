package dev.hicachesync.env;

/** The already-completed {@link TransferEvent}. */
enum Completed implements TransferEvent {
  INSTANCE;

  @Override
  public boolean isDone() {
    return true;
  }

  @Override
  public void await() {}

  @Override
  public String toString() {
    return "TransferEvent[done]";
  }
}
