package child

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBeneath(t *testing.T) {
	for _, tc := range []struct {
		path, root string
		want       bool
	}{
		{"/c/mod/x@v1/p", "/c/mod", true},
		{"/c/mod", "/c/mod", true},
		{"/c/module/p", "/c/mod", false},
		{"/c/mod/../other", "/c/mod", false},
		{"/c/mod/..x/p", "/c/mod", true},
		{"/c/p", "", false},
	} {
		if got := beneath(tc.path, tc.root); got != tc.want {
			t.Errorf("beneath(%q, %q) = %v, want %v", tc.path, tc.root, got, tc.want)
		}
	}
}

func TestWithoutModFlag(t *testing.T) {
	if got := withoutModFlag("-buildvcs=false -mod=mod  -trimpath --mod=vendor"); got != "-buildvcs=false -trimpath" {
		t.Errorf("withoutModFlag: %q", got)
	}
}

func TestWorkspaceFile(t *testing.T) {
	ws := &workspace{use: []string{"/u/main", "/w/module-1/m"}, goVersions: []string{"1.16", "", "1.22.3", "1.21"},
		replace: []string{`"example.com/a" v1.0.0 => "/u/a"`}}
	file := filepath.Join(t.TempDir(), "go.work")
	if err := ws.write(file); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "go 1.22.3\n\nuse (\n\t\"/u/main\"\n\t\"/w/module-1/m\"\n)\n\nreplace (\n\t\"example.com/a\" v1.0.0 => \"/u/a\"\n)\n"
	if string(b) != want {
		t.Errorf("go.work:\n%s\nwant:\n%s", b, want)
	}
	if got := (&workspace{goVersions: []string{"1.13", ""}}).goLine(); got != minWorkGo {
		t.Errorf("go line %s for old modules, want %s", got, minWorkGo)
	}
}

// TestFixGoMod checks the go.mod of copies: a dependency loses the
// directives only a main module obeys and takes the path it is required
// by; a main module keeps its replacements, made absolute.
func TestFixGoMod(t *testing.T) {
	ctx := context.Background()
	src := "module example.com/fork\n\ngo 1.21\n\ntoolchain go1.21.5\n\nrequire example.com/a v1.0.0\n\n" +
		"replace example.com/a => ../a\n\nreplace example.com/b v1.0.0 => example.com/c v1.2.0\n\nexclude example.com/a v0.9.0\n"
	for _, main := range []bool{false, true} {
		root := t.TempDir()
		writeFiles(t, root, map[string]string{"go.mod": src})
		orig := "/users/tree/fork"
		line, err := fixGoMod(ctx, root, &Module{Path: "example.com/orig", Dir: orig, GoMod: filepath.Join(root, "go.mod"),
			Main: main})
		if err != nil {
			t.Fatal(err)
		}
		if line != "1.21" {
			t.Errorf("main %v: go line %q, want 1.21", main, line)
		}
		mf, err := readModFile(ctx, filepath.Join(root, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		if mf.Module.Path != "example.com/orig" {
			t.Errorf("main %v: module %s, want example.com/orig", main, mf.Module.Path)
		}
		var reps []string
		for _, r := range mf.Replace {
			reps = append(reps, r.Old.String()+"=>"+r.New.String())
		}
		got := strings.Join(reps, " ")
		if !main && (got != "" || len(mf.Exclude) != 0 || mf.Toolchain != "") {
			t.Errorf("dependency keeps replace %q, exclude %v, toolchain %q", got, mf.Exclude, mf.Toolchain)
		}
		if want := "example.com/a=>/users/tree/a example.com/b@v1.0.0=>example.com/c@v1.2.0"; main && got != want {
			t.Errorf("main module: replacements %q, want %q", got, want)
		}
	}
}

// TestUserWorkspace checks that a copy joins the modules of the user's
// workspace and its replacements, the copied module's own replacement
// left out.
func TestUserWorkspace(t *testing.T) {
	tmp := t.TempDir()
	writeFiles(t, tmp, map[string]string{
		"go.work": "go 1.23\n\nuse (\n\t./main\n\t./other\n)\n\nreplace example.com/x => ./x\n\n" +
			"replace example.com/copied => example.com/copied v1.0.0\n",
		"main/go.mod":  "module example.com/main\n\ngo 1.20\n",
		"other/go.mod": "module example.com/other\n\ngo 1.21\n",
		"x/go.mod":     "module example.com/x\n",
	})
	t.Setenv("GOWORK", "")
	ctx := context.Background()
	from := filepath.Join(tmp, "main")
	env, err := readGoEnv(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	ws, err := userWorkspace(ctx, Target{From: from, Module: &Module{Path: "example.com/copied"}}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(ws.use, " "), from+" "+filepath.Join(tmp, "other"); got != want {
		t.Errorf("use %s, want %s", got, want)
	}
	if got, want := strings.Join(ws.replace, "|"), `"example.com/x" => "`+filepath.Join(tmp, "x")+`"`; got != want {
		t.Errorf("replace %s, want %s", got, want)
	}
	if got := ws.goLine(); got != "1.23" {
		t.Errorf("go line %s, want 1.23", got)
	}
}
