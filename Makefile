# Front door: `make demo` and `make test` do all the set-up from a fresh clone.
JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
BUILD   ?= build
ASAN    ?= build-asan
FUZZ    ?= build-fuzz
ARM64   ?= build-arm64
PREFIX  ?= /usr/local
FUZZ_SECONDS ?= 20

.PHONY: all deps deps-test build build-tests arm64 test test-fast test-asan test-pmu test-pmu-host fuzz demo bench \
	install clean

all: build

# Two sets of Debian packages (scripts/install-deps.sh): what building and running pmuscope
# needs, for build, demo and install; and the tests' references, browser and emulated machine,
# for the test targets only.
deps:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPMS_WERROR=ON

build: deps $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)

# The same build with its tests, which need cmocka from the test set (a build configured
# before the test set was installed is configured again).
build-tests: deps-test $(BUILD)/CMakeCache.txt
	cmake -S . -B $(BUILD) -DPMS_TESTS=ON >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

$(ASAN)/CMakeCache.txt: | deps-test
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DPMS_WERROR=ON -DPMS_SANITIZE=ON -DPMS_TESTS=ON

# The aarch64 cross build that the hardware suite runs in the emulated ARM machine (scripts/pmu-vm).
arm64: deps-test
	scripts/arm64-build.sh $(ARM64)

# Every test, twice: the normal build, then AddressSanitizer + UBSan; then the fuzzers briefly.
# No retries: live tests assert on the CPU time their target received or on exact counts,
# so they hold however busy the machine is (docs/testing.md).
CTEST = ctest --output-on-failure -j $(JOBS)
test: build-tests arm64 $(ASAN)/CMakeCache.txt
	cd $(BUILD) && PMS_ARM64_BUILD=$(abspath $(ARM64)) $(CTEST)
	cmake --build $(ASAN) -j $(JOBS)
	cd $(ASAN) && $(CTEST) -LE no-sanitize
	$(MAKE) fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

test-fast: build-tests
	cd $(BUILD) && $(CTEST)

# The hardware suite (tests/pmu) in the emulated ARM machine with a PMU (make test runs it too),
# and the same suite directly on this host, for a machine with a real PMU.
test-pmu: build-tests arm64
	cd $(BUILD) && PMS_ARM64_BUILD=$(abspath $(ARM64)) $(CTEST) -L pmu

test-pmu-host: build-tests
	cd $(BUILD) && PMS_PMU_HOST=1 $(CTEST) -L pmu

fuzz: deps-test
	CC=clang cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=Debug -DPMS_FUZZ=ON >/dev/null
	cmake --build $(FUZZ) -j $(JOBS)
	tests/run-fuzzers.sh $(FUZZ) $(FUZZ_SECONDS)

# Every method on the bundled workloads and data: a summary here, the page in pmuscope-demo/index.html.
demo: build
	$(BUILD)/pmuscope demo -o pmuscope-demo

bench: build-tests
	bench/run-all.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ) $(ARM64)
