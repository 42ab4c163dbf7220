package store_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/store"
)

func TestKeyConstructors(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{store.TournamentPK("t1"), "T#t1"},
		{store.GamePK("g1"), "G#g1"},
		{store.PlayerSK("p1"), "P#p1"},
		{store.OfficialSK("o1"), "O#o1"},
		{store.TeamSK("m1"), "M#m1"},
		{store.RoundSK(3), "R#0003"},
		{store.ResultSK(3, 12), "X#0003#0012"},
		{store.LineupSK(3, "m1"), "L#0003#m1"},
		{store.IdempotencyPK("abc"), "I#abc"},
		{store.ConnectionPK("c1"), "C#c1"},
		{store.SubscriptionPK(store.GamePK("g1")), "S#G#g1"},
		{store.SubscriptionSK("c1"), "C#c1"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

func TestKeyParsers(t *testing.T) {
	for _, c := range []struct {
		sk     string
		round  int
		ok     bool
		prefix string
	}{
		{store.RoundSK(3), 3, true, store.RoundPrefix},
		{store.ResultSK(12, 7), 12, true, store.ResultPrefix},
		{store.LineupSK(4, "m1"), 4, true, store.LineupPrefix},
		{store.PlayerSK("p1"), 0, false, store.PlayerPrefix},
		{store.MetaSK, 0, false, "ME"},
		{"R#x", 0, false, store.RoundPrefix},
		{"R", 0, false, "R"},
	} {
		n, ok := store.RoundOf(c.sk)
		if n != c.round || ok != c.ok {
			t.Errorf("RoundOf(%q) = %d, %v; want %d, %v", c.sk, n, ok, c.round, c.ok)
		}
		if got := store.SKPrefix(c.sk); got != c.prefix {
			t.Errorf("SKPrefix(%q) = %q, want %q", c.sk, got, c.prefix)
		}
	}
	if gid, ok := store.GameOf(store.GamePK("g1")); gid != "g1" || !ok {
		t.Errorf("GameOf(G#g1) = %q, %v", gid, ok)
	}
	if _, ok := store.GameOf(store.TournamentPK("t1")); ok {
		t.Error("GameOf(T#t1) says it is a game")
	}
	if tid, ok := store.TournamentOf(store.TournamentPK("t1")); tid != "t1" || !ok {
		t.Errorf("TournamentOf(T#t1) = %q, %v", tid, ok)
	}
	if got := store.SubscriberOf(store.SubscriptionSK("c1")); got != "c1" {
		t.Errorf("SubscriberOf = %q, want c1", got)
	}
}

// fixedSKs are the values of keys.go's fixed sort keys (its constants named
// …SK: META, GAME, …), read from the file so a new one is covered at once.
func fixedSKs(t *testing.T, fset *token.FileSet) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, "keys.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, name := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && strings.HasSuffix(name.Name, "SK") {
					v, _ := strconv.Unquote(lit.Value)
					out = append(out, regexp.QuoteMeta(v))
				}
			}
		}
	}
	if len(out) < 4 {
		t.Fatalf("keys.go declares %d fixed sort keys (%v); want META, GAME, IDEM, CONN at least", len(out), out)
	}
	return out
}

// TestNoKeyLiteralOutsideKeys holds the storage layout in keys.go: no other
// non-test Go file of the module builds or matches a key with a literal — a
// key prefix ("P#", "T#%s", "X#%04d…"), a fixed sort key or a part suffix.
func TestNoKeyLiteralOutsideKeys(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	keyLiteral := regexp.MustCompile(`^(?:[A-Z]#|(?:` + strings.Join(fixedSKs(t, fset), "|") + `)$)|#~part`)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "testdata", "node_modules", "web":
				return filepath.SkipDir
			}
			if path == filepath.Join(root, "infra", "minidyn") { // the engine: DynamoDB's words, not our keys
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
			path == filepath.Join(root, "shared", "store", "keys.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && keyLiteral.MatchString(s) {
				t.Errorf("%s: key literal %s: build it with shared/store's keys.go", fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
