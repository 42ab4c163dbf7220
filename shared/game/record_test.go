package game_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/game"
	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestRecord_AllFormats writes each worked game in every format and compares
// with testdata/<game>.<format>.golden (go test -update rewrites them).
func TestRecord_AllFormats(t *testing.T) {
	info := game.RecordInfo{Event: "xqtour open", Site: "online", Round: "3", Red: "Lü Qin", Black: "Xu Yinchuan"}
	for name, play := range worked {
		g := play(t)
		for _, format := range game.RecordFormats {
			t.Run(name+"/"+format, func(t *testing.T) {
				got, err := g.Record(t0+3*60*mn, format, info)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("testdata", name+"."+format+".golden")
				if *update {
					if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				if got != string(want) {
					t.Errorf("record differs from %s:\n got:\n%s\nwant:\n%s", path, got, want)
				}
			})
		}
	}
}

// TestRecord_ReadsBack parses each move-list record with the notation it
// names and gets the game's moves again.
func TestRecord_ReadsBack(t *testing.T) {
	for name, play := range worked {
		g := play(t)
		for _, format := range []string{"iccs", "wxf", "chinese", "yz3", "yz4"} {
			rec, err := g.Record(t0, format, game.RecordInfo{})
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, line := range strings.Split(strings.TrimSpace(rec), "\n") {
				f := strings.Fields(line)
				if len(f) < 2 || !strings.HasSuffix(f[0], ".") {
					continue // the result line
				}
				for _, tok := range f[1:] {
					if tok != "..." {
						texts = append(texts, tok)
					}
				}
			}
			n, _ := notation.ByName(format)
			got, err := notation.ParseLine(n, xiangqi.NewPosition(), texts)
			if err != nil {
				t.Fatalf("%s/%s: %v", name, format, err)
			}
			want := g.Moves()
			if len(got) != len(want) {
				t.Fatalf("%s/%s: %d moves read back, want %d", name, format, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s/%s: move %d = %v, want %v", name, format, i, got[i], want[i])
				}
			}
		}
	}
}

func TestRecord_PGNFromFENAndUnknownFormat(t *testing.T) {
	const fen = "3k5/R8/9/9/9/9/9/9/9/5K3 b - - 0 1"
	g := newGame(t, game.Setup{FEN: fen, Control: preset(t, "untimed")})
	run(t, g, []step{{do: "move+press", by: black, move: "d9e9"}, {do: "move+press", by: red, move: "a8a9"}})
	got, err := g.Record(t0, "pgn", game.RecordInfo{Date: "2026.11.30"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[FEN "` + fen + `"]`, `[Date "2026.11.30"]`, "1. ... D9-E9\n2. A8-A9\n", `[Result "*"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("PGN lacks %q:\n%s", want, got)
		}
	}
	if _, err := g.Record(t0, "xml", game.RecordInfo{}); err == nil {
		t.Error("unknown format accepted")
	}
}
