// Command eventcost plays a whole event on the local stack and reports what
// it used and what it would cost on AWS: a Swiss of -players players over
// -rounds rounds, every game entered move by move (-plies plies, the clock
// pressed with each move, then the side to move resigns), the standings read
// after each round.
//
//	go run ./infra/eventcost [-players 100] [-rounds 9] [-plies 150] [-clients 4]
//
// The stack is the local one (the API over an embedded DynamoDB-compatible
// server, on loopback HTTP) with one API instance per Lambda function, each
// gathering and writing usage as a warm function instance would: requests go
// to the instance of the function httpapi.Routes assigns them to. Time is
// simulated (half a second per move across the event), so usage is written
// as often as in a real event of that pace. The figures are the event's usage
// route after every instance has written its remainder, plus the table
// storage the event leaves, priced with shared/pricing.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	var cfg config
	flag.IntVar(&cfg.players, "players", 100, "players in the event")
	flag.IntVar(&cfg.rounds, "rounds", 9, "Swiss rounds")
	flag.IntVar(&cfg.plies, "plies", 150, "plies entered per game before the side to move resigns")
	flag.IntVar(&cfg.clients, "clients", 4, "games entered at once")
	flag.Parse()
	rep, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "eventcost:", err)
		os.Exit(1)
	}
	rep.print(os.Stdout)
}
