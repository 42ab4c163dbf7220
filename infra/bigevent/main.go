// Command bigevent builds a large Swiss on the local stack and measures every
// route it calls the way Lambda would run it (`make bigevent`):
//
//	go run ./infra/bigevent [-players 10000] [-rounds 11] [-vcpu 1] [-workers 4]
//
// The embedded DynamoDB-compatible store runs in a child process, so this
// process's CPU time is the handlers' alone. Each request goes through the
// same API Gateway v2 proxy adapter the functions use (in process, no
// network): the organiser creates the event, registers every player, then
// for each round pairs it (starting it at once), records every game's result
// as an over-the-board result (POST /games/{gid}/result, a few at a time),
// and reads what the public reads. The report gives, per route, the largest
// response as Lambda returns it (the JSON-encoded proxy response, which is
// what Lambda's 6 MB limit counts), the handler time (median and largest),
// the handler's CPU time, and the DynamoDB units per request.
//
// -pairprofile writes a CPU profile of the last round's pairing request (the
// handler's alone: the store runs elsewhere) for `go tool pprof`.
//
// -paironly times the Swiss pairing alone at any size (the event's cap of
// 20,000 players does not apply: no event is built), for the curve past it.
//
// -pairjob N pairs the rounds of an event of more than N players as jobs
// (POST …/rounds answers 202; the run polls GET …/rounds/{n}/job until
// done, then reads the round): each round's line adds the 202's time and
// size and the job's wall time, and the report's rows the polls.
//
// -vcpu limits this process to that many CPUs (GOMAXPROCS and a cgroup CPU
// quota, when the machine lets it create one): Lambda gives a function
// memory/1,769 MB of a vCPU, so -vcpu 1 is 1,769 MB and -vcpu 0.58 is 1,024 MB.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/store"
)

func main() {
	if os.Getenv(storeChildEnv) != "" {
		serveStore()
		return
	}
	players := flag.Int("players", 10_000, "players in the event")
	rounds := flag.Int("rounds", 11, "rounds to pair and play")
	workers := flag.Int("workers", 4, "results recorded at once")
	vcpu := flag.Float64("vcpu", 0, "CPUs the handlers may use (0: no limit); 1 is a 1,769 MB function")
	seed := flag.Uint64("seed", 1, "seed of the results")
	profile := flag.String("pairprofile", "", "write a CPU profile of the last round's pairing request to this file")
	partition := flag.Bool("partition", true, "enforce DynamoDB's per-partition throughput (1,000 WCU, 3,000 RCU a second per partition key) in the store")
	pairjob := flag.Int("pairjob", 0, "pair the rounds of an event of more players than this as jobs (202, polled); 0: the service's default, 20,000")
	paironly := flag.Bool("paironly", false, "time only the Swiss pairing of the last round, after the pairing checker simulated the rounds before it (no store, no handlers): sizes above the event's cap")
	flag.Parse()
	if *paironly {
		if err := pairOnly(*players, *rounds, *seed); err != nil {
			fmt.Fprintln(os.Stderr, "bigevent:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*players, *rounds, *workers, *vcpu, *seed, *profile, *partition, *pairjob); err != nil {
		fmt.Fprintln(os.Stderr, "bigevent:", err)
		os.Exit(1)
	}
}

func run(players, rounds, workers int, vcpu float64, seed uint64, profile string, partition bool, pairjob int) error {
	if players < 2 || rounds < 1 || workers < 1 {
		return fmt.Errorf("want -players ≥ 2, -rounds ≥ 1, -workers ≥ 1")
	}
	ctx := context.Background()
	endpoint, storeStats, stop, storePID, err := startStore(partition)
	if err != nil {
		return err
	}
	defer stop()
	release := func() {}
	if vcpu > 0 {
		var how string
		if release, how, err = limitCPU(vcpu); err != nil {
			return err
		}
		defer release()
		fmt.Printf("CPU: %s\n", how)
	}
	stats := newStats()
	// An interrupted run reports what it measured so far and leaves no
	// cgroup behind.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		fmt.Println("\ninterrupted; measured so far:")
		stats.print(os.Stdout)
		release()
		stop()
		os.Exit(1)
	}()
	st, err := store.Open(ctx, store.Config{Table: "bigevent", Region: "us-east-1", Endpoint: endpoint})
	if err != nil {
		return err
	}
	if err := st.CreateTable(ctx); err != nil {
		return err
	}
	units := newUnitsLog()
	api := httpapi.New(st, httpapi.WithLogger(slog.New(units)), httpapi.WithPairJobPlayers(pairjob))
	lam := &lambda{proxy: httpadapter.NewV2(api.Handler()), stats: stats, storePID: storePID, units: units, store: storeStats}
	b := &builder{lam: lam, rng: rand.New(rand.NewPCG(seed, 16)), workers: workers, profile: profile}
	began := time.Now()
	limits := "off"
	if partition {
		limits = "on (1,000 WCU and 3,000 RCU a second per partition key)"
	}
	fmt.Printf("bigevent: %d players, %d rounds, GOMAXPROCS %d, partition limits %s\n", players, rounds, runtime.GOMAXPROCS(0), limits)
	buildErr := b.build(players, rounds)
	if buildErr != nil {
		// What was measured up to the failure is still the report.
		fmt.Printf("\nstopped: %v\nmeasured so far:\n", buildErr)
	}
	lam.stats.print(os.Stdout)
	if partition {
		if err := printPartitions(os.Stdout, storeStats, lam.stats); err != nil {
			return err
		}
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	fmt.Printf("\nbuilt and measured in %s; the handlers' process peaked at %d MB resident, the store's at %d MB\n",
		time.Since(began).Round(time.Second), ru.Maxrss/1024, peakMemory(storePID))
	return buildErr
}
