// A reference point for docs/benchmarks/csv.md: how fast the best published exact number parser,
// Lemire's fast_float (C++, https://github.com/fastfloat/fast_float, measured with release 8.2.9),
// reads the numbers of the benchmark CSV on this machine. Single-threaded, the file in memory, one pass
// over every cell: parse the number, step over the separator or line break that follows, and add the
// square of the value (so the compiler cannot drop the parse). Nothing else: no line or column checks,
// no row storage, no clipping, no XᵀX.
//
//   git clone --depth 1 --branch v8.2.9 https://github.com/fastfloat/fast_float
//   g++ -O3 -march=native -std=c++17 -Ifast_float/include fast_float_reference.cpp -o fast_float_reference
//   ./fast_float_reference s.csv
#include "fast_float/fast_float.h"

#include <chrono>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE.csv (numbers only, one header line, comma-separated)\n", argv[0]);
        return 2;
    }
    std::FILE* f = std::fopen(argv[1], "rb");
    if (f == nullptr) {
        std::perror(argv[1]);
        return 1;
    }
    std::fseek(f, 0, SEEK_END);
    long n = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    std::vector<char> buf(n + 64);
    if (std::fread(buf.data(), 1, n, f) != static_cast<size_t>(n)) {
        std::fprintf(stderr, "short read\n");
        return 1;
    }
    std::fclose(f);
    const char* end = buf.data() + n;
    const char* data = buf.data();
    while (data < end && *data != '\n') {
        data++;
    }
    data++;  // after the header
    for (int rep = 0; rep < 5; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        double acc = 0;
        long cells = 0;
        for (const char* p = data; p < end;) {
            double v;
            auto r = fast_float::from_chars(p, end, v);
            if (r.ec != std::errc()) {
                std::fprintf(stderr, "not a number at byte %ld\n", static_cast<long>(p - buf.data()));
                return 1;
            }
            acc += v * v;
            cells++;
            p = r.ptr + 1;  // the separator or the line break
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("fast_float: %ld cells in %.3f s: %.1f ns per cell, %.0f MB/s on one core (checksum %g)\n", cells,
                    s, s * 1e9 / cells, (end - data) / s / 1e6, acc);
    }
    return 0;
}
