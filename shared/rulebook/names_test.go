package rulebook_test

import (
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Like the links above, a check over the whole repository: its file names
// follow one convention (README's "Layout"). Go files are named for what
// they hold (no types.go, no helpers_test.go: a package's shared test
// helpers are its fixtures_test.go); a testdata file is a worked example's
// NAME.input beside its expected NAME.golden (or a golden alone), a table of
// cases (.tsv) or a record in its own format (.pgn), fuzz corpora aside; and
// a table lives once — a package reads another's rather than keep a copy.
// infra/minidyn is the DynamoDB engine vendored with its upstream names.
func TestRepositoryFileNames(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := map[[sha256.Size]byte]string{}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch {
			case d.Name() == ".git", d.Name() == "node_modules", d.Name() == "fuzz",
				rel == filepath.Join("infra", "minidyn"):
				return filepath.SkipDir
			}
			return nil
		}
		switch d.Name() {
		case "types.go", "helpers_test.go":
			t.Errorf("%s: name the file for what it holds", rel)
		}
		if filepath.Base(filepath.Dir(path)) != "testdata" && !strings.Contains(rel, "testdata"+string(filepath.Separator)) {
			return nil
		}
		files++
		switch ext := filepath.Ext(path); ext {
		case ".golden", ".tsv", ".pgn":
		case ".md":
			// A worked example's arithmetic, written out for a reader.
			if d.Name() != "README.md" {
				t.Errorf("%s: explain a testdata folder in its README.md", rel)
			}
		case ".input":
			if _, err := os.Stat(strings.TrimSuffix(path, ext) + ".golden"); err != nil {
				t.Errorf("%s has no expected output beside it (.golden)", rel)
			}
		default:
			t.Errorf("%s: a testdata file is .input with its .golden, .golden, .tsv, .pgn or a README.md", rel)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(src)
		if first, dup := seen[sum]; dup {
			t.Errorf("%s repeats %s: read it from there", rel, first)
		}
		seen[sum] = rel
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("found only %d testdata files; is the walk rooted at the repository?", files)
	}
}
