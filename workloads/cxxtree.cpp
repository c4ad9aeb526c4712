// cxxtree: C++ functions whose symbols need demangling (a namespace, a class template, a
// member function, an operator), called in a small tree, for the tests of demangled names
// in reports and pprof profiles. --scale N multiplies the work (default 1: about a third
// of a second).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static volatile std::uint64_t sink;

// Called after the loops: gcc gives a function that calls none no frame, even with
// -fno-omit-frame-pointer, and a frame-pointer callchain would skip its caller.
__attribute__((noinline)) static void keep(std::uint64_t x) { sink = sink + x; }

namespace shapes {

template <typename T> struct Spinner {
    __attribute__((noinline)) static T spin(T n)
    {
        T x = n;
        for (T i = 0; i < n; i++) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            x ^= x >> 31;
        }
        keep(x);
        return x;
    }
};

class Grid {
  public:
    explicit Grid(std::uint64_t n) : n_(n) {}
    __attribute__((noinline)) std::uint64_t walk() const { return Spinner<std::uint64_t>::spin(n_ * 2) + 1; }
    __attribute__((noinline)) std::uint64_t operator()() const { return Spinner<unsigned>::spin((unsigned)n_) + 1; }

  private:
    std::uint64_t n_;
};

} // namespace shapes

int main(int argc, char **argv)
{
    long scale = 1;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--scale") == 0 && i + 1 < argc) {
            scale = std::strtol(argv[++i], nullptr, 10);
        } else {
            std::fprintf(stderr, "usage: cxxtree [--scale N]\n");
            return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    if (scale < 1) {
        std::fprintf(stderr, "cxxtree: --scale must be at least 1\n");
        return 2;
    }
    const shapes::Grid grid(1000000ull * (std::uint64_t)scale / 3);
    for (int round = 0; round < 100; round++) sink = sink + grid.walk() + grid();
    return 0;
}
