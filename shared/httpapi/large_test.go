package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store"
	"github.com/xqtour/xqtour/shared/store/embedded"
	"github.com/xqtour/xqtour/shared/tournament"
)

// A field large enough that its round outgrows one DynamoDB item (400 KB):
// pairing stores the round across continuation items and reads it back whole,
// and every game of the round exists.
func TestLargeSwissRoundSpansItems(t *testing.T) {
	if testing.Short() {
		t.Skip("pairs 3,000 players")
	}
	const n = 3000
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Mass Open","rounds":7}`)
	// Register through the core and write the items in bulk: 3,000 HTTP
	// registrations would test nothing new and take a while.
	var tour tournament.Tournament
	meta, err := s.Store.Get(t.Context(), "T#"+ev.ID, "META")
	if err != nil || json.Unmarshal(meta.Doc, &tour) != nil {
		t.Fatal(err)
	}
	recs := []*store.Record{}
	for i := range n {
		p, err := tour.Register(tournament.Player{ID: fmt.Sprintf("p%05d", i), Name: fmt.Sprintf("Player %d", i), Rating: 2600 - i%500}, 0)
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := json.Marshal(p)
		recs = append(recs, &store.Record{PK: "T#" + ev.ID, SK: "P#" + p.ID, Kind: store.KindPlayer, Version: 1, Doc: doc})
	}
	meta.Doc, _ = json.Marshal(&tour)
	recs = append(recs, meta)
	if err := s.Store.Import(t.Context(), recs); err != nil {
		t.Fatal(err)
	}
	// Pairing runs under DynamoDB's per-partition throughput (1,000 write
	// units a second on the event's key): whatever the store throttles, the
	// retries absorb, and the organiser gets the round, not a 429.
	s.DB.LimitPartitions(embedded.DefaultPartitionLimits)
	defer func() { t.Logf("partition limits: %+v", s.DB.Partitions()) }()
	var round struct {
		Pairings []struct {
			Table  int
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{"round":1}`).Want(t, http.StatusCreated).Decode(t, &round)
	if len(round.Pairings) != n/2 {
		t.Fatalf("%d pairings, want %d", len(round.Pairings), n/2)
	}
	head, err := s.Store.Get(t.Context(), "T#"+ev.ID, "R#0001")
	if err != nil {
		t.Fatal(err)
	}
	if head.Build == "" || head.Parts < 2 {
		t.Fatalf("a %d-byte round was not staged in parts: build %q, %d parts", len(head.Body), head.Build, head.Parts)
	}
	var again struct {
		Pairings []struct{ Table int }
	}
	s.Get("/tournaments/"+ev.ID+"/rounds/1").Want(t, http.StatusOK).Decode(t, &again)
	if len(again.Pairings) != n/2 {
		t.Fatalf("read back %d pairings, want %d", len(again.Pairings), n/2)
	}
	last := round.Pairings[len(round.Pairings)-1]
	s.Get("/games/"+last.GameID).Want(t, http.StatusOK)
	t.Logf("%d players: round body %d bytes in %d parts, head %d bytes", n, len(head.Body), head.Parts, len(head.Doc))
}
