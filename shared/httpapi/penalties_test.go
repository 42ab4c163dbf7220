package httpapi_test

import (
	"net/http"
	"testing"

	"github.com/xqtour/xqtour/shared/httpapi/apitest"
)

// TestDroppedPiece_O2_ScribeRecords over HTTP: 000 ch.7 §2 第4条 (书记员给于提醒
// … 每局同一运动员不可有两次，如出现两次运动员立刻认负). In an event with
// rules.droppedPieceLoses the board's scribe records red's dropped pieces
// with a droppedPiece ruling; the second ends the game 0-1 (droppedPiece).
// A clock correction is not the scribe's to make.
func TestDroppedPiece_O2_ScribeRecords(t *testing.T) {
	s := apitest.New(t)
	ev := newEvent(t, s, `{"name":"Strict","system":"swiss","rounds":7,"rules":{"droppedPieceLoses":true}}`)
	for _, name := range []string{"A", "B"} {
		s.Post("/tournaments/"+ev.ID+"/players", ev.Token, map[string]any{"name": name}).Want(t, http.StatusCreated)
	}
	scribe := s.Post("/tournaments/"+ev.ID+"/officials", ev.Token, `{"role":"scribe","name":"Scribe","tables":[1]}`).Want(t, http.StatusCreated).JSON()["token"].(string)
	var round struct {
		Pairings []struct {
			GameID string `json:"gameId"`
		}
	}
	s.Post("/tournaments/"+ev.ID+"/rounds", ev.Token, `{}`).Want(t, http.StatusCreated).Decode(t, &round)
	gid := round.Pairings[0].GameID
	s.Post("/games/"+gid+"/rulings", scribe, `{"kind":"clock","side":"red","remainingMs":1000,"note":"x"}`).Want(t, http.StatusForbidden)
	s.Post("/games/"+gid+"/rulings", scribe, `{"kind":"droppedPiece"}`).Want(t, http.StatusBadRequest)
	first := s.Post("/games/"+gid+"/rulings", scribe, `{"kind":"droppedPiece","side":"red"}`).Want(t, http.StatusOK).JSON()
	if first["status"] == "over" {
		t.Fatalf("a first dropped piece ended the game: %v", first)
	}
	second := s.Post("/games/"+gid+"/rulings", scribe, `{"kind":"droppedPiece","side":"red"}`).Want(t, http.StatusOK).JSON()
	if second["status"] != "over" || second["result"] != "0-1" || second["reason"] != "droppedPiece" {
		t.Errorf("after the second drop: status %v result %v reason %v", second["status"], second["result"], second["reason"])
	}
}

// TestDroppedPiece_O2_LosesByDefault over HTTP: 000 ch.7 §2 第4条 "每局同一运动员
// 不可有两次，如出现两次运动员立刻认负" is the rule book's, so an event that says
// nothing about rules.droppedPieceLoses has it on (the view says true) and a
// side's second dropped piece loses; an event that turns it off only logs
// drops.
func TestDroppedPiece_O2_LosesByDefault(t *testing.T) {
	s := apitest.New(t)
	on := pairTwo(t, s, `{"name":"Default","system":"swiss","rounds":3}`)
	if r := s.Get("/tournaments/"+on.ev.ID).Want(t, http.StatusOK).JSON()["rules"].(map[string]any); r["droppedPieceLoses"] != true {
		t.Fatalf("an event created without rules shows droppedPieceLoses %v, want true", r["droppedPieceLoses"])
	}
	s.Post("/games/"+on.gid+"/rulings", on.arb, `{"kind":"droppedPiece","side":"black"}`).Want(t, http.StatusOK)
	st := s.Post("/games/"+on.gid+"/rulings", on.arb, `{"kind":"droppedPiece","side":"black"}`).Want(t, http.StatusOK).JSON()
	wantOver(t, st, "1-0", "droppedPiece")

	off := pairTwo(t, s, `{"name":"Lenient","system":"swiss","rounds":3,"rules":{"droppedPieceLoses":false}}`)
	for range 2 {
		st := s.Post("/games/"+off.gid+"/rulings", off.arb, `{"kind":"droppedPiece","side":"red"}`).Want(t, http.StatusOK).JSON()
		if st["status"] == "over" {
			t.Fatalf("with droppedPieceLoses false a dropped piece ended the game: %v", st)
		}
	}
}
