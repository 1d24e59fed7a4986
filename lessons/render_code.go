package lessons

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// codeBlocks renders code blocks as goldmark does, but with a focusable
// <pre>: a long line scrolls sideways on a phone, and a region that scrolls
// must be reachable with the keyboard to be read at all (WCAG 2.1.1).
type codeBlocks struct{}

// RegisterFuncs takes over both kinds of code block from the default
// renderer (this one is registered with a higher priority).
func (codeBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindCodeBlock, renderCode)
}

func renderCode(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</code></pre>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code`)
	if fenced, ok := node.(*ast.FencedCodeBlock); ok {
		if lang := fenced.Language(source); lang != nil {
			_, _ = w.WriteString(` class="language-`)
			html.DefaultWriter.Write(w, lang)
			_ = w.WriteByte('"')
		}
	}
	_ = w.WriteByte('>')
	lines := node.Lines()
	for i := range lines.Len() {
		line := lines.At(i)
		html.DefaultWriter.RawWrite(w, line.Value(source))
	}
	return ast.WalkContinue, nil
}
