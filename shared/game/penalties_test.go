package game_test

import (
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/result"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// TestOffer_O2_ForbiddenOfferLoses: 000 ch.4 注意事项 (9) 在有杀对无杀的情况下无杀方
// 无权提和, (13) 提议作和经对方拒绝后,连续提出, and (15) 运动员违反上述规定时，立即
// 认负。不与纪律处分) — where the event adopts it (rules.offerLoses) such an
// offer loses at once, logged as a forbidden offer (not a disciplinary
// penalty); without it the offer is refused (D-5, D-2) and the game goes on.
func TestOffer_O2_ForbiddenOfferLoses(t *testing.T) {
	const redHasNone = "3ak4/9/9/9/9/9/9/9/r8/3K1A3 w - - 0 1"
	t.Run("NoMaterial_9", func(t *testing.T) {
		g := newGame(t, game.Setup{FEN: redHasNone, Control: preset(t, "world"), Rules: game.Rules{OfferLoses: true}})
		run(t, g, []step{
			{do: "move", by: red, move: "f0e1"},
			{do: "offer", by: red},
		})
		wantResult(t, g, result.BlackWins, game.ForbiddenOffer)
		// (15) 不与纪律处分: logged as what it is, not as a disciplinary penalty.
		if l := g.Log(); len(l) != 1 || l[0].Ruling.Kind != game.RulingForbiddenOffer || l[0].Ruling.Side != xiangqi.Red {
			t.Errorf("log %+v, want one forbidden offer by red", l)
		}
		if _, ok := game.ParseRulingKind("forbiddenOffer"); ok {
			t.Error("an arbiter may post a forbiddenOffer ruling")
		}
	})
	t.Run("RepeatedAfterRefusal_13", func(t *testing.T) {
		g := newGame(t, game.Setup{Control: preset(t, "world"), Rules: game.Rules{OfferLoses: true}})
		run(t, g, []step{
			{do: "move", by: red, move: "h2e2"},
			{do: "offer", by: red},
			{do: "press", by: red},
			{do: "move+press", by: black, move: "h9g7"}, // declines by moving (D-3)
			{do: "move", by: red, move: "h0g2"},
			{do: "offer", by: red},
		})
		wantResult(t, g, result.BlackWins, game.ForbiddenOffer)
	})
	t.Run("OffByDefault", func(t *testing.T) {
		g := newGame(t, game.Setup{FEN: redHasNone, Control: preset(t, "world")})
		run(t, g, []step{
			{do: "move", by: red, move: "f0e1"},
			{do: "offer", by: red, code: game.CodeDrawNotAllowed, rule: "D-5"},
		})
		if g.Status() == game.Over {
			t.Error("a refused offer ended the game")
		}
	})
}

// TestDroppedPiece_O2_SecondLoses: 000 ch.7 §2 第4条 (如果明显地属于无意中失手把
// 棋子掉落在棋盘上，书记员给于提醒，而不作落子处理。每局同一运动员不可有两次，如出现两次
// 运动员立刻认负). The scribe or an arbiter records each drop; with
// rules.droppedPieceLoses a side's second drop in the game loses; the
// other side's drop counts apart; without the option drops are only
// logged. A player may not record one.
func TestDroppedPiece_O2_SecondLoses(t *testing.T) {
	drop := func(side xiangqi.Color) game.Ruling {
		return game.Ruling{Kind: game.RulingDroppedPiece, Side: side}
	}
	g := newGame(t, game.Setup{Control: preset(t, "world"), Rules: game.Rules{DroppedPieceLoses: true}})
	if err := g.Rule(t0, red, drop(xiangqi.Black)); err == nil {
		t.Fatal("a player recorded a dropped piece")
	}
	for i, r := range []struct {
		by   game.Actor
		side xiangqi.Color
	}{{scribe, xiangqi.Red}, {arb, xiangqi.Black}} {
		if err := g.Rule(t0+int64(i), r.by, drop(r.side)); err != nil {
			t.Fatal(err)
		}
	}
	if g.Status() == game.Over {
		t.Fatal("a first drop ended the game")
	}
	if err := g.Rule(t0+5, scribe, drop(xiangqi.Red)); err != nil {
		t.Fatal(err)
	}
	wantResult(t, g, result.BlackWins, game.DroppedPiece)

	// The option and the drops survive the binary form.
	b, err := g.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := game.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if r, why := back.Result(); r != result.BlackWins || why != game.DroppedPiece || !back.Rules().DroppedPieceLoses {
		t.Errorf("decoded %v %v %+v", r, why, back.Rules())
	}

	off := newGame(t, game.Setup{Control: preset(t, "world")})
	for i := range 3 {
		if err := off.Rule(t0+int64(i), arb, drop(xiangqi.Red)); err != nil {
			t.Fatal(err)
		}
	}
	if off.Status() == game.Over || len(off.Log()) != 3 {
		t.Errorf("without the option: status %v, %d log entries", off.Status(), len(off.Log()))
	}
}

// TestRepetition_G6_WhoCouldBreak: 000 ch.8 新的规定 (运子后,下一着不致被将死。则应
// 化解循环局面). Red's chariot checks the bare black general up and down
// (a8a9+ d9d8, a9a8+ d8d9). Worked by hand: at d9 black has one move (d8;
// e9 stays on the chariot's rank and faces the red general on e0). At d8
// it may also go d7, but then a8e8 leaves it no move at all (d8 is on the
// chariot's rank, e7 on its file, d6 and c7 outside the palace) — 困毙,
// which loses like mate (G-1) — so black could not have broken the cycle.
// Red, against a bare general, can deviate with any move. From 5 cycles on
// the game shows both facts to the arbiters.
func TestRepetition_G6_WhoCouldBreak(t *testing.T) {
	const fen = "3k5/R8/9/9/9/9/9/9/9/4K4 w - - 0 1"
	var line []step
	for range 5 {
		line = append(line,
			step{do: "move+press", by: red, move: "a8a9"},
			step{do: "move+press", by: black, move: "d9d8"},
			step{do: "move+press", by: red, move: "a9a8"},
			step{do: "move+press", by: black, move: "d8d9"})
	}
	g := newGame(t, game.Setup{FEN: fen, Control: preset(t, "untimed")})
	run(t, g, line[:16])
	if v := g.View(t0); v.Repetition.CouldBreak != [2]bool{} {
		t.Errorf("before 5 cycles: %+v, want no break facts yet", v.Repetition)
	}
	run(t, g, line[16:])
	r := g.View(t0).Repetition
	if r.Cycles < 5 || !r.CouldBreak[xiangqi.Red] || r.CouldBreak[xiangqi.Black] || r.BreakingMove[xiangqi.Black] != "" {
		t.Fatalf("repetition %+v, want red able to break and black not", r)
	}
	if m := r.BreakingMove[xiangqi.Red]; m == "" || m == "a8a9" || m == "a9a8" {
		t.Errorf("red's breaking move %q, want a move off the cycle", m)
	}
	// Give black a soldier on i5 (it cannot move while in check, so the
	// cycle is the same): after d8d7 a8e8 no longer leaves black without a
	// move, and no red move mates, so d8d7 — black's only deviation — breaks
	// the cycle.
	g = newGame(t, game.Setup{FEN: "3k5/R8/9/9/8p/9/9/9/9/4K4 w - - 0 1", Control: preset(t, "untimed")})
	run(t, g, line)
	r = g.View(t0).Repetition
	if !r.CouldBreak[xiangqi.Black] || r.BreakingMove[xiangqi.Black] != "d8d7" {
		t.Errorf("with a black soldier: %+v, want black able to break with d8d7", r)
	}
}
