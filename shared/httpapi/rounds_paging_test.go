package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi"
	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// pagedRound is a round's answer with the page fields.
type pagedRound struct {
	Pairings []struct {
		Table  int    `json:"table"`
		GameID string `json:"gameId"`
	} `json:"pairings"`
	Total  *int    `json:"total"`
	Offset *int    `json:"offset"`
	Next   *string `json:"next"`
}

// pagedPlayers is the players list with the page fields.
type pagedPlayers struct {
	Players []struct {
		ID     string `json:"id"`
		Number int    `json:"number"`
	} `json:"players"`
	Total *int    `json:"total"`
	Next  *string `json:"next"`
}

// A round of up to a page's tables and an event of up to a page's players
// answer as they always did: whole, with no page fields — the pairing's
// answer, the round's read (from the event, then from its view) and the
// players list.
func TestRoundAndPlayersWholeUpToAPage(t *testing.T) {
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Whole","system":"swiss","rounds":3}`, 10)
	var posted, read, again pagedRound
	s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &posted)
	path := "/tournaments/" + f.ev.ID + "/rounds/1"
	s.Get(path).Want(t, http.StatusOK).Decode(t, &read)
	s.Get(path).Want(t, http.StatusOK).Decode(t, &again)
	for what, r := range map[string]pagedRound{"pairing": posted, "read": read, "view": again} {
		if len(r.Pairings) != 5 || r.Total != nil || r.Offset != nil || r.Next != nil {
			t.Fatalf("%s: %d tables, page fields %v %v %v", what, len(r.Pairings), r.Total, r.Offset, r.Next)
		}
	}
	var ps pagedPlayers
	s.Get("/tournaments/"+f.ev.ID+"/players").Want(t, http.StatusOK).Decode(t, &ps)
	if len(ps.Players) != 10 || ps.Total != nil || ps.Next != nil {
		t.Fatalf("players: %d, page fields %v %v", len(ps.Players), ps.Total, ps.Next)
	}
}

// A round of more tables than a page holds is answered in pages: the
// pairing with its first page and the read of the next, each read with
// the one after, until the last; together they are the round's tables in
// order, each once, from the event and from the round's view alike.
func TestRoundPagedAboveAPage(t *testing.T) {
	httpapi.SmallPages(t, 2, 3)
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Paged","system":"swiss","rounds":3}`, 10)
	var first pagedRound
	s.Post("/tournaments/"+f.ev.ID+"/rounds", f.ev.Token, nil).Want(t, http.StatusCreated).Decode(t, &first)
	if len(first.Pairings) != 2 || first.Total == nil || *first.Total != 5 || *first.Offset != 0 || first.Next == nil {
		t.Fatalf("the pairing's first page: %+v", first)
	}
	if want := "/tournaments/" + f.ev.ID + "/rounds/1?limit=2&offset=2"; *first.Next != want {
		t.Fatalf("next: %s, want %s", *first.Next, want)
	}
	for pass := range 2 { // the first pass reads the event, the second the view it kept
		tables := []int{first.Pairings[0].Table, first.Pairings[1].Table}
		next := first.Next
		for next != nil {
			var p pagedRound
			s.Get(*next).Want(t, http.StatusOK).Decode(t, &p)
			if p.Total == nil || *p.Total != 5 || len(p.Pairings) == 0 || len(p.Pairings) > 2 {
				t.Fatalf("pass %d, %s: %+v", pass, *next, p)
			}
			for _, x := range p.Pairings {
				tables = append(tables, x.Table)
			}
			next = p.Next
		}
		if len(tables) != 5 {
			t.Fatalf("pass %d: tables %v", pass, tables)
		}
		for i, tb := range tables {
			if tb != i+1 {
				t.Fatalf("pass %d: tables %v, want 1…5 in order", pass, tables)
			}
		}
	}
	wantError(t, s.Get("/tournaments/"+f.ev.ID+"/rounds/1?limit=3"), http.StatusBadRequest, "invalid_query", "")
	wantError(t, s.Do(apitest.Req{Method: http.MethodGet, Path: "/tournaments/" + f.ev.ID + "/rounds/1?offset=-1", Invalid: true}), http.StatusBadRequest, "invalid_query", "")
}

// The players list of more players than a page holds is answered in
// pages, in number order, each player once.
func TestPlayersPagedAboveAPage(t *testing.T) {
	httpapi.SmallPages(t, 2, 3)
	s := apitest.New(t)
	f := newField(t, s, `{"name":"Many","system":"swiss","rounds":3}`, 10)
	seen := map[string]bool{}
	last := 0
	next := ptrTo("/tournaments/" + f.ev.ID + "/players")
	pages := 0
	for next != nil {
		var p pagedPlayers
		s.Get(*next).Want(t, http.StatusOK).Decode(t, &p)
		if p.Total == nil || *p.Total != 10 || len(p.Players) == 0 || len(p.Players) > 3 {
			t.Fatalf("%s: %+v", *next, p)
		}
		for _, pl := range p.Players {
			if seen[pl.ID] || pl.Number <= last {
				t.Fatalf("player %s (number %d) out of order or twice", pl.ID, pl.Number)
			}
			seen[pl.ID], last = true, pl.Number
		}
		next, pages = p.Next, pages+1
	}
	if len(seen) != 10 || pages != 4 {
		t.Fatalf("%d players in %d pages", len(seen), pages)
	}
	wantError(t, s.Get("/tournaments/"+f.ev.ID+"/players?limit=4"), http.StatusBadRequest, "invalid_query", "")
}

func ptrTo[T any](v T) *T { return &v }
