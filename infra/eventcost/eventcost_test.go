package main

import (
	"bytes"
	"strings"
	"testing"
)

// A small event played end to end: every request it sent is counted for the
// event by the usage route (every function instance's remainder written),
// each move costs at least one write and one read unit, and the report
// prices it.
func TestRun_SmallEventCountsEveryRequest(t *testing.T) {
	rep, err := run(config{players: 6, rounds: 2, plies: 12, clients: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.games != 6 || rep.moves != 6*12 {
		t.Errorf("%d games, %d moves; want 6 games of 12 plies", rep.games, rep.moves)
	}
	if float64(rep.clientRequests) != rep.usage.Requests {
		t.Errorf("sent %d requests, the usage route counted %v", rep.clientRequests, rep.usage.Requests)
	}
	if rep.usage.WriteUnits < float64(rep.moves) || rep.usage.ReadUnits < float64(rep.moves) || rep.usage.LambdaMs < float64(rep.clientRequests) {
		t.Errorf("usage %+v: want at least a read and a write unit and a millisecond per move", rep.usage)
	}
	c := rep.cost()
	if c.Total <= 0 || c.Total != c.APIGateway+c.Lambda+c.DynamoDB+c.Streams+c.Storage {
		t.Errorf("cost %+v", c)
	}
	var out bytes.Buffer
	rep.print(&out)
	if !strings.Contains(out.String(), "total") || !strings.Contains(out.String(), "POST /games/{gid}/moves") {
		t.Errorf("report:\n%s", out.String())
	}
}
