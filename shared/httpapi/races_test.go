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
