package notation_test

import (
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/notation"
	"github.com/xqtour/xqtour/shared/xiangqi"
)

var update = flag.Bool("update", false, "rewrite the want column of testdata/bad.tsv from the current messages")

// TestExamples_N1toN4 reads the worked examples of 000 ch.6 and N-1…N-4
// (testdata/examples.tsv: rule, FEN, notation, input, ICCS, canonical
// output): the input reads as the ICCS move, in its notation and through
// ParseAny, and the move writes as the canonical output.
func TestExamples_N1toN4(t *testing.T) {
	rows := readTSV(t, "testdata/examples.tsv")
	if len(rows) < 40 {
		t.Fatalf("examples.tsv has %d rows", len(rows))
	}
	for _, row := range rows {
		rule, fen, name, in, iccs, want := row[0], row[1], row[2], row[3], row[4], row[5]
		t.Run(rule+"/"+name+"/"+in, func(t *testing.T) {
			p := mustFEN(t, fen)
			n, ok := notation.ByName(name)
			if !ok {
				t.Fatalf("ByName(%q) not found", name)
			}
			if n.Name() != name {
				t.Errorf("ByName(%q).Name() = %q", name, n.Name())
			}
			m, err := n.Parse(p, in)
			if err != nil || m.String() != iccs {
				t.Errorf("Parse(%q) = %v, %v; want %s", in, m, err, iccs)
			}
			if m, err := notation.ParseAny(p, in); err != nil || m.String() != iccs {
				t.Errorf("ParseAny(%q) = %v, %v; want %s", in, m, err, iccs)
			}
			mv, err := notation.ICCS{}.Parse(p, iccs)
			if err != nil {
				t.Fatalf("ICCS %s: %v", iccs, err)
			}
			if got, err := n.Format(p, mv); err != nil || got != want {
				t.Errorf("Format(%s) = %q, %v; want %q", iccs, got, err, want)
			}
		})
	}
}

// TestParse_BadInput reads testdata/bad.tsv (FEN, notation or "any", input,
// the error message): each input fails with a *ParseError wrapping
// ErrUnreadable whose text is the message.
func TestParse_BadInput(t *testing.T) {
	rows := readTSV(t, "testdata/bad.tsv")
	var out []string
	for _, row := range rows {
		for len(row) < 4 {
			row = append(row, "")
		}
		fen, name, in, want := row[0], row[1], row[2], row[3]
		p := mustFEN(t, fen)
		var err error
		var m xiangqi.Move
		if name == "any" {
			m, err = notation.ParseAny(p, in)
		} else {
			n, ok := notation.ByName(name)
			if !ok {
				t.Fatalf("ByName(%q) not found", name)
			}
			m, err = n.Parse(p, in)
		}
		got := ""
		if err != nil {
			got = err.Error()
		}
		out = append(out, strings.Join([]string{fen, name, in, got}, "\t"))
		var pe *notation.ParseError
		switch {
		case err == nil:
			t.Errorf("%s %q read as %v, want an error", name, in, m)
		case !errors.As(err, &pe) || !errors.Is(err, notation.ErrUnreadable):
			t.Errorf("%s %q: error %T %v is not a *ParseError wrapping ErrUnreadable", name, in, err, err)
		case pe.Input != in || pe.Reason == "":
			t.Errorf("%s %q: ParseError %+v lacks input or reason", name, in, pe)
		case !*update && got != want:
			t.Errorf("%s %q:\n got %s\nwant %s", name, in, got, want)
		}
	}
	if *update {
		data := "fen\tnotation\tinput\twant error\n" + strings.Join(out, "\n") + "\n"
		if err := os.WriteFile("testdata/bad.tsv", []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParse_IllegalCarriesRule: when the text names a move the rules refuse,
// the engine's error with its rule id (shared/RULES.md) is wrapped, so the HTTP layer can
// report the rule.
func TestParse_IllegalCarriesRule(t *testing.T) {
	p := xiangqi.NewPosition()
	_, err := notation.ICCS{}.Parse(p, "h0h2") // a horse moving straight: B-6
	var ie *xiangqi.IllegalMoveError
	if !errors.As(err, &ie) || ie.Rule == "" {
		t.Fatalf("Parse(h0h2) = %v; want a wrapped *xiangqi.IllegalMoveError with a rule", err)
	}
}

// TestByName lists the registry names.
func TestByName(t *testing.T) {
	for _, name := range []string{"iccs", "wxf", "chinese-traditional", "yz3-traditional", "yz4-traditional", "chinese", "yz3", "yz4"} {
		n, ok := notation.ByName(name)
		if !ok || n.Name() != name {
			t.Errorf("ByName(%q) = %v, %v", name, n, ok)
		}
		if up, ok := notation.ByName(strings.ToUpper(name)); !ok || up.Name() != name {
			t.Errorf("ByName(%q) = %v, %v", strings.ToUpper(name), up, ok)
		}
	}
	if _, ok := notation.ByName("pgn"); ok {
		t.Errorf("ByName(pgn) found a notation")
	}
	if got := len(notation.All()); got != 5 {
		t.Errorf("len(All()) = %d, want 5", got)
	}
}
