// A Go program whose CPU profile (go test -cpuprofile) pmuscope report reads: three
// functions, each with its own loop, burn CPU in the ratio 4:2:1 by work done, not by
// time, so that each has its own flat share on any machine at any load.
package goburn

import "testing"

var sink uint64

//go:noinline
func burnA(n int) { // a linear congruential step and a shift
	x := sink
	for i := 0; i < 4*n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		x ^= x >> 29
	}
	sink = x
}

//go:noinline
func burnB(n int) { // xorshift64
	x := sink | 1
	for i := 2 * n; i > 0; i-- {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink = x
}

//go:noinline
func burnC(n int) { // squaring with the counter mixed in
	x := sink
	for i := uint64(0); i < uint64(n); i++ {
		x = x*x + i
	}
	sink = x
}

func TestBurn(t *testing.T) {
	for i := 0; i < 60; i++ {
		burnA(1 << 20)
		burnB(1 << 20)
		burnC(1 << 20)
	}
	if sink == 0 {
		t.Fatal("nothing computed")
	}
}
