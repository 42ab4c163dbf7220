package rulebook_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xqtour/xqtour/shared/rulebook"
)

var update = flag.Bool("update", false, "rewrite shared/RULES.md from the table")

const rulesMD = "../RULES.md"

// shared/RULES.md is the table rendered; -update rewrites it.
func TestRulesMarkdownInSync(t *testing.T) {
	want := rulebook.Markdown()
	if *update {
		if err := os.WriteFile(rulesMD, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(rulesMD)
	if err != nil {
		t.Fatalf("%v (run go test ./shared/rulebook -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is not the rendered table; run go test ./shared/rulebook -update", rulesMD)
	}
}

// Every rule has an id of the cited form, a title, an explanation and a
// source naming one of the books; no id appears twice.
func TestEveryRuleIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range rulebook.All() {
		if !rulebook.IDPattern.MatchString(r.ID) || rulebook.IDPattern.FindString(r.ID) != r.ID {
			t.Errorf("%q is not a rule id", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("%s appears twice", r.ID)
		}
		seen[r.ID] = true
		if r.Title == "" || len(r.Text) < 40 {
			t.Errorf("%s: title %q, text %q", r.ID, r.Title, r.Text)
		}
		named := false
		for _, b := range rulebook.Books {
			named = named || strings.Contains(r.Source, b.Key)
		}
		if !named {
			t.Errorf("%s: source %q names none of the books", r.ID, r.Source)
		}
		if got, ok := rulebook.Lookup(r.ID); !ok || got != r {
			t.Errorf("Lookup(%s) = %+v, %v", r.ID, got, ok)
		}
	}
	if _, ok := rulebook.Lookup("Z-1"); ok {
		t.Error("Lookup found Z-1")
	}
}

// Every rule id cited anywhere in the repository's non-test Go code — an
// error's rule, a comment — is explained in the table.
func TestEveryCitedRuleIsExplained(t *testing.T) {
	root := "../.."
	cited := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "build", "data", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, id := range rulebook.IDPattern.FindAllString(string(src), -1) {
			cited[id] = path
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(cited) < 50 {
		t.Fatalf("found only %d cited ids; is the walk rooted at the repository?", len(cited))
	}
	for id, path := range cited {
		if _, ok := rulebook.Lookup(id); !ok {
			t.Errorf("%s cites %s, which the rule book does not explain", path, id)
		}
	}
}

// Nothing in the repository links outside it: a clone has no kit beside it.
// Markdown links resolve to files inside the repository, and no text file
// points at the parent's shared directory.
func TestNothingLinksOutsideTheRepository(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	outside := ".." + "/shared" // spelled apart so this file does not match itself
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "build", "data":
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".json", ".tsv", ".txt", "":
		default:
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if bytes.Contains(src, []byte(outside)) {
			t.Errorf("%s mentions %s", rel, outside)
		}
		if filepath.Ext(path) != ".md" {
			return nil
		}
		for _, m := range link.FindAllSubmatch(src, -1) {
			target := string(m[1])
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			abs := filepath.Join(filepath.Dir(path), target)
			if r, err := filepath.Rel(root, abs); err != nil || strings.HasPrefix(r, "..") {
				t.Errorf("%s links outside the repository: %s", rel, m[1])
			} else if _, err := os.Stat(abs); err != nil {
				t.Errorf("%s links to a missing file: %s", rel, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
