package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestYZ3_N2_DirectionNotFrontRear over HTTP, 000 ch.6 一字三数: "当(车马炮象士相仕)
// 双子同列且都可以到达落子点时，略去第一数，用进、退区分 … 车炮的进、退无需数格了写横标码
// 就是了". Two red chariots on file 9 can both reach 94: the rear one goes
// there advancing and is written 车进94, the front one retreating, 车退94 —
// 进/退 is the move's direction, not which of the two pieces is in front.
// Either is read back as the move it names.
func TestYZ3_N2_DirectionNotFrontRear(t *testing.T) {
	s := apitest.New(t)
	const fen = "3k5/9/9/9/R8/9/9/9/9/R3K4 w - - 0 1" // chariots on a5 (front) and a0 (rear)
	for _, tc := range []struct{ iccs, yz3 string }{
		{"a0a3", "车进94"}, // the rear chariot advances
		{"a5a3", "车退94"}, // the front chariot retreats
	} {
		g := createGame(t, s, `{"fen":"`+fen+`"}`)
		tb := &table{t: t, s: s, g: g}
		tb.move("red", tc.iccs, true)
		rec := string(s.Get("/games/"+g.ID+"/record?format=yz3").Want(t, http.StatusOK).Body)
		if !strings.Contains(rec, tc.yz3) {
			t.Errorf("%s is written %q, want %s", tc.iccs, rec, tc.yz3)
		}
		h := createGame(t, s, `{"fen":"`+fen+`"}`)
		st := s.Post("/games/"+h.ID+"/moves", h.RedToken, map[string]any{"move": tc.yz3, "ply": 0, "press": true}).Want(t, http.StatusOK).JSON()
		if moves := st["moves"].([]any); len(moves) != 1 || moves[0] != tc.iccs {
			t.Errorf("%s read as %v, want %s", tc.yz3, moves, tc.iccs)
		}
	}
}
