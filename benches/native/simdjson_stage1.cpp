// simdjson's stage 1 alone over a JSONL corpus: the structural index and the UTF-8 (and
// control-character) check of each frame, with no grammar check, no escape check and nothing
// built; the front end of simdjson, the fastest validating JSON parser published, with its
// AVX2/AVX-512 kernels. A reference, not a proof: it bounds parsers of simdjson's design
// (index first, then walk), and a single-pass validator needs no index. docs/performance.md
// ("12. Where the remaining limits are") compares it with the Python parse and msgspec's.
//
// Build against the simdjson amalgamation that pysimdjson ships (scripts/bench does this when
// a C++ compiler is present):
//   DIR=$(python -c 'import os, simdjson; print(os.path.dirname(simdjson.__file__))')
//   g++ -O3 -DNDEBUG -std=c++17 -I"$DIR" benches/native/simdjson_stage1.cpp "$DIR/simdjson.cpp" -o stage1
//   ./stage1 target/bench-corpus/large.jsonl [--rounds N] [--kernel NAME] [--json PATH]
// NAME: one of simdjson's kernels this processor runs (icelake: AVX-512, haswell: AVX2, the
// instruction set of wirecontract's string windows; westmere: SSE4.2; fallback); the best one
// by default. Prints µs per frame (best of the rounds, rows interleaved within a round): the
// UTF-8 check alone, stage 1 alone, the whole DOM parse, and the kernel in use; `--json`
// writes the same, and how many frames each refused, for benches/report.py. Uses
// `simdjson::internal::dom_parser_implementation`, not public API: a simdjson upgrade may move
// it (scripts/bench then skips the rows).
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  const char *corpus = nullptr, *json = nullptr, *kernel_name = nullptr;
  int rounds = 9;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--kernel" && i + 1 < argc) {
      kernel_name = argv[++i];
    } else if (a == "--json" && i + 1 < argc) {
      json = argv[++i];
    } else if (!corpus && a.rfind("--", 0) != 0) {
      corpus = argv[i];
    } else {
      std::fprintf(stderr, "usage: %s CORPUS.jsonl [--rounds N] [--kernel NAME] [--json PATH]\n", argv[0]);
      return 2;
    }
  }
  if (!corpus) {
    std::fprintf(stderr, "usage: %s CORPUS.jsonl [--rounds N] [--kernel NAME] [--json PATH]\n", argv[0]);
    return 2;
  }
  if (kernel_name) {
    const simdjson::implementation *kernel = simdjson::get_available_implementations()[kernel_name];
    if (!kernel || !kernel->supported_by_runtime_system()) {
      std::fprintf(stderr, "kernel %s is not available here\n", kernel_name);
      return 3;
    }
    simdjson::get_active_implementation() = kernel;
  }
  std::ifstream in(corpus, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", corpus);
    return 2;
  }
  // Each frame in a buffer with simdjson's padding after it, as its API requires.
  std::vector<simdjson::padded_string> frames;
  size_t largest = 0, bytes = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    largest = std::max(largest, line.size());
    bytes += line.size();
    frames.emplace_back(line);
  }
  if (frames.empty()) {
    std::fprintf(stderr, "no frames in %s\n", corpus);
    return 2;
  }
  std::unique_ptr<simdjson::internal::dom_parser_implementation> stage1;
  if (simdjson::get_active_implementation()->create_dom_parser_implementation(largest, simdjson::DEFAULT_MAX_DEPTH, stage1) != simdjson::SUCCESS) {
    std::fprintf(stderr, "no parser implementation\n");
    return 1;
  }
  simdjson::dom::parser dom;
  if (dom.allocate(largest) != simdjson::SUCCESS) return 1;

  using clock = std::chrono::steady_clock;
  const char *names[3] = {"UTF-8 check alone (simdjson::validate_utf8)", "stage 1 alone (structural index + UTF-8)", "whole DOM parse (stage 1 + stage 2)"};
  double best[3] = {1e300, 1e300, 1e300};
  size_t refused[3] = {0, 0, 0};
  for (int r = 0; r < rounds; r++) {
    for (int v = 0; v < 3; v++) {
      size_t bad = 0;
      auto t0 = clock::now();
      for (const auto &f : frames) {
        const uint8_t *p = reinterpret_cast<const uint8_t *>(f.data());
        bool ok = true;
        if (v == 0) ok = simdjson::validate_utf8(f.data(), f.size());
        if (v == 1) ok = stage1->stage1(p, f.size(), simdjson::stage1_mode::regular) == simdjson::SUCCESS;
        if (v == 2) ok = dom.parse(f).error() == simdjson::SUCCESS;
        bad += !ok;
      }
      double us = std::chrono::duration<double, std::micro>(clock::now() - t0).count() / frames.size();
      best[v] = std::min(best[v], us);
      refused[v] = bad;
    }
  }
  const std::string kernel = simdjson::get_active_implementation()->name();
  std::printf("%s: %zu frames, %zu bytes a frame on average; simdjson %s, kernel %s\n", corpus, frames.size(), bytes / frames.size(), SIMDJSON_VERSION, kernel.c_str());
  for (int v = 0; v < 3; v++) std::printf("  %-46s %9.3f us/frame  (%zu frames refused)\n", names[v], best[v], refused[v]);
  if (json) {
    std::FILE *out = std::fopen(json, "w");
    if (!out) {
      std::fprintf(stderr, "cannot write %s\n", json);
      return 1;
    }
    std::fprintf(out,
                 "{\"simdjson\": \"%s\", \"kernel\": \"%s\", \"frames\": %zu, \"utf8_us\": %.4f, \"stage1_us\": %.4f, \"dom_us\": %.4f, "
                 "\"refused\": {\"utf8\": %zu, \"stage1\": %zu, \"dom\": %zu}}\n",
                 SIMDJSON_VERSION, kernel.c_str(), frames.size(), best[0], best[1], best[2], refused[0], refused[1], refused[2]);
    std::fclose(out);
  }
  return 0;
}
