package notation_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

// openingICCS is 中炮对屏风马: 炮二平五 马8进7 马二进三 车9平8 车一平二 马2进3.
var openingICCS = []string{"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"}

var openingIn = map[string][]string{
	"iccs":                {"h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"},
	"wxf":                 {"C2=5", "H8+7", "H2+3", "R9=8", "R1=2", "H2+3"},
	"chinese-traditional": {"砲二平五", "馬8進7", "馬二進三", "車9平8", "車一平二", "馬2進3"},
	"chinese":             {"炮二平五", "马8进7", "马二进三", "车9平8", "车一平二", "马2进3"},
	"yz3-traditional":     {"砲253", "馬873", "馬233", "車981", "車121", "馬233"},
	"yz4-traditional":     {"砲23-53", "馬81-73", "馬21-33", "車91-81", "車11-21", "馬21-33"},
}

func openingMoves(t *testing.T) []xiangqi.Move {
	t.Helper()
	moves, err := notation.ParseLine(notation.ICCS{}, xiangqi.NewPosition(), openingICCS)
	if err != nil {
		t.Fatal(err)
	}
	return moves
}

// TestFormatLine writes a whole opening from the start position in each
// notation, as the records endpoint does, and reads it back.
func TestFormatLine(t *testing.T) {
	start := xiangqi.NewPosition()
	moves := openingMoves(t)
	for name, want := range openingIn {
		n, _ := notation.ByName(name)
		got, err := notation.FormatLine(n, start, moves)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("FormatLine(%s) = %v, %v; want %v", name, got, err, want)
		}
		back, err := notation.ParseLine(n, start, want)
		if err != nil || !reflect.DeepEqual(back, moves) {
			t.Errorf("ParseLine(%s) = %v, %v; want %v", name, back, err, moves)
		}
		back, err = notation.ParseLine(nil, start, want)
		if err != nil || !reflect.DeepEqual(back, moves) {
			t.Errorf("ParseLine(nil, %s) = %v, %v; want %v", name, back, err, moves)
		}
	}
	if start.FEN() != xiangqi.StartFEN {
		t.Errorf("FormatLine/ParseLine changed the start position to %s", start.FEN())
	}
}

// TestLine_ErrorNamesTheMove: the error says which move of the line failed.
func TestLine_ErrorNamesTheMove(t *testing.T) {
	start := xiangqi.NewPosition()
	moves := openingMoves(t)
	moves[3] = moves[2] // red plays twice: illegal for black
	if _, err := notation.FormatLine(notation.WXF{}, start, moves); err == nil || !strings.HasPrefix(err.Error(), "move 4: ") {
		t.Errorf("FormatLine with a bad 4th move: %v", err)
	}
	texts := append([]string(nil), openingIn["chinese-traditional"]...)
	texts[4] = "車二平一"
	_, err := notation.ParseLine(nil, start, texts)
	if err == nil || !strings.HasPrefix(err.Error(), "move 5: ") || !errors.Is(err, notation.ErrUnreadable) {
		t.Errorf("ParseLine with a bad 5th text: %v", err)
	}
}

// BenchmarkFormat and BenchmarkParse time one move of the start position in
// each notation (the game service parses one move per request).
func BenchmarkFormat(b *testing.B) {
	p := xiangqi.NewPosition()
	m := xiangqi.NewMove(xiangqi.NewSquare(7, 2), xiangqi.NewSquare(4, 2))
	for _, n := range notation.All() {
		b.Run(n.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := n.Format(p, m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	p := xiangqi.NewPosition()
	texts := map[string]string{"iccs": "h2e2", "wxf": "C2=5", "chinese-traditional": "炮二平五", "yz3-traditional": "炮253", "yz4-traditional": "炮23-53"}
	for _, n := range notation.All() {
		b.Run(n.Name(), func(b *testing.B) {
			for b.Loop() {
				if _, err := n.Parse(p, texts[n.Name()]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("any/chinese", func(b *testing.B) {
		for b.Loop() {
			if _, err := notation.ParseAny(p, "炮二平五"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
