package httpapi_test

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
	"github.com/xqtour/xqtour/shared/store/embedded"
)

// S-6: a player withdrawn while round 1 is being paired — after the pairing
// read the players, before it stored the round — must not be paired: the
// pairing loses the race and pairs again from the new state.
func TestWithdrawDuringPairingIsNotPaired(t *testing.T) {
	for _, action := range []string{"withdraw", "pause"} {
		t.Run(action, func(t *testing.T) {
			s := apitest.New(t)
			ev := newEvent(t, s, `{"name":"Race Open","rounds":5}`)
			var ids []string
			for _, name := range []string{"A", "B", "C", "D", "E"} {
				var p created
				s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated).Decode(t, &p)
				ids = append(ids, p.ID)
			}
			leaver := ids[0]
			var fired atomic.Bool
			var during *apitest.Resp
			s.DB.Intercept(func(op string, _ []byte) embedded.Fault {
				if op == "TransactWriteItems" && fired.CompareAndSwap(false, true) {
					during = s.Post("/tournaments/"+ev.ID+"/players/"+leaver+"/"+action, ev.Token, nil)
				}
				return embedded.Serve
			})
			r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`)
			s.DB.Intercept(nil)
			if during == nil || during.Status != http.StatusOK {
				t.Fatalf("%s during the pairing: %v", action, during)
			}
			var round struct {
				Pairings []struct{ Red, Black string }
				Byes     []string
			}
			r.Want(t, http.StatusCreated).Decode(t, &round)
			for _, p := range round.Pairings {
				if p.Red == leaver || p.Black == leaver {
					t.Fatalf("the player who left (%s) was paired in round 1: %s", action, r.Body)
				}
			}
			if len(round.Pairings) != 2 {
				t.Fatalf("four players left should make two tables: %s", r.Body)
			}
		})
	}
}

// A round's startsAt starts its games' clocks (C-6): a start decades off
// (a typo) would lose every game on time at its first read. It is refused
// as malformed and nothing is paired; a start minutes ago is a late pairing.
func TestPairRoundRefusesStartFarFromNow(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Typo Open","rounds":3,"timeControl":"rapid-5/30"}`)
	for _, name := range []string{"A", "B"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	before := tableItems(t, s.Store)
	for _, at := range []string{"0001-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2026-11-27T08:59:00Z", "2031-01-01T00:00:00Z"} {
		r := s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, map[string]any{"startsAt": at})
		if r.Status != http.StatusBadRequest || r.ErrorCode() != "invalid_field" {
			t.Errorf("startsAt %s: %d %s", at, r.Status, r.Body)
		}
	}
	if after := tableItems(t, s.Store); after != before {
		t.Fatalf("refused pairings changed the table: %d items, then %d", before, after)
	}
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{"startsAt":"2026-11-28T08:58:00Z"}`).Want(t, http.StatusCreated).Decode(t, &round)
	if g := s.Get("/games/" + round.Pairings[0].GameID).JSON(); g["result"] != nil {
		t.Fatalf("a round started two minutes ago (five-minute games) ended at once: %v", g["result"])
	}
}
