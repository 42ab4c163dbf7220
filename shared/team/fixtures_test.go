package team_test

import (
	"bufio"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/team"
)

// wantRuleErr fails unless err is a *team.RuleError with the code and rule;
// an empty code wants no error at all.
func wantRuleErr(t *testing.T, err error, code, rule string) {
	t.Helper()
	if code == "" {
		if err != nil {
			t.Fatalf("got %v, want nil", err)
		}
		return
	}
	var re *team.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("got error %v, want *RuleError %s (%s)", err, code, rule)
	}
	if re.Code != code || re.Rule != rule {
		t.Fatalf("got %s (%s) %q, want %s (%s)", re.Code, re.Rule, re.Message, code, rule)
	}
	if re.Message == "" {
		t.Fatalf("%s: empty message", code)
	}
}

// readRows returns the tab-separated fields of a testdata file's lines,
// skipping blank lines and # comments.
func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rows = append(rows, strings.Split(line, "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

func players(ids ...string) []team.Player {
	ps := make([]team.Player, len(ids))
	for i, id := range ids {
		ps[i] = team.Player{ID: id}
	}
	return ps
}
