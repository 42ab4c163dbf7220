package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/xqtour/xqtour/shared/pairing/checker"
	"github.com/xqtour/xqtour/shared/pairing/swiss"
)

// pairOnly measures the Swiss pairing alone at a size the event cannot
// hold yet (the product caps an event at tournament.MaxPlayers, because a
// round's item must fit one 4 MB transaction): rounds-1 rounds are played by
// the pairing checker's simulation (withdrawals, pauses, late entries and
// unfinished games included), then round `rounds` is paired and timed — the
// CPU time, wall time and heap the pairing itself needs, which a pairing job
// at that size would spend on top of reading the event and writing the round.
func pairOnly(players, rounds int, seed uint64) error {
	if rounds < 2 {
		return fmt.Errorf("-paironly wants -rounds ≥ 2 (rounds-1 simulated, the last one timed)")
	}
	began := time.Now()
	rep, err := checker.Simulate(checker.Event{Players: players, Rounds: rounds - 1, Seed: seed, Churn: true})
	if err != nil {
		return err
	}
	if rep.Stopped {
		return fmt.Errorf("the simulation found no pairing for a round")
	}
	fmt.Printf("simulated %d rounds of %d players in %s\n", rounds-1, players, time.Since(began).Round(time.Second))
	in := swiss.Input{Players: rep.Players, Rounds: rounds, Round: rounds, DrawPoints: 1}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0, wall0 := cpuTime(), time.Now()
	r, err := swiss.Pair(in)
	wall, cpu := time.Since(wall0), cpuTime()-cpu0
	if err != nil {
		return err
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	fmt.Printf("round %d of %d players: %d boards paired in %s wall, %s CPU (GOMAXPROCS %d), %d MB allocated, heap %d MB\n",
		rounds, players, len(r.Boards), wall.Round(time.Millisecond), cpu.Round(time.Millisecond), runtime.GOMAXPROCS(0),
		(after.TotalAlloc-before.TotalAlloc)>>20, after.HeapSys>>20)
	return nil
}
