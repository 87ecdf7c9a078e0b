package dev.hicachesync.storage;

class MemoryStorageBackendTest extends StorageBackendContractTest {
  @Override
  protected StorageBackend newBackend() {
    return new MemoryStorageBackend();
  }
}
