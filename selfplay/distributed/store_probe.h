// selfplay/distributed/store_probe.h — is what answers at MASTER_ADDR:MASTER_PORT a c10d
// TCPStore?
//
// c10d's TCPStore client trusts its peer: junk on the port (another program, a port scanner's
// banner) is read as message lengths and ends in std::bad_alloc, std::out_of_range or an abort
// in the store's background thread, and a peer that accepts and stays silent blocks it past any
// timeout. So a rank that joins a store hosted elsewhere first asks it one question of the
// store's own protocol and checks the answer, with a deadline on every step:
//
//   ADD  key "nardy-probe/rank<R>"  delta kProbeDelta   →  the key's new value (int64)
//
// A TCPStore answers a positive multiple of kProbeDelta (the key grows by it at every attempt,
// e.g. after torchrun restarts); anything else — other bytes, a short answer, silence until the
// deadline, a closed connection — is refused with an Error naming the address and what came
// back. A refused connection is retried until the deadline (the store may not be up yet).
//
// The wire format is TCPStore's of LibTorch 1.13 (torch/csrc/distributed/c10d/TCPStore.cpp):
// a query type byte (ADD = 3), the key as a uint64 length and its bytes, the delta as an int64,
// all in the host's byte order; the answer is one int64. Torch-free: POSIX sockets only.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace nardy {

inline constexpr int64_t kProbeDelta = 0x4e41524459;  // "NARDY"

// Throws Error when the peer at host:port does not answer as a TCPStore within `timeout`.
// `rank` names the probe's key (each rank probes its own key).
void probe_store(const std::string& host, int port, int rank, std::chrono::milliseconds timeout);

}  // namespace nardy
