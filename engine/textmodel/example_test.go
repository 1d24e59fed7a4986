package textmodel_test

import (
	"fmt"

	"github.com/latencylab/latencylab/engine/textmodel"
)

func ExamplePieces() {
	ids := textmodel.Encode("Fast 🚀")
	for _, p := range textmodel.Pieces(ids) {
		fmt.Printf("%q ", p)
	}
	fmt.Println(len(ids) == textmodel.Count("Fast 🚀"))
	// Output: "Fast" "" "" " 🚀" true
}

func ExamplePromptTokens() {
	ids := textmodel.PromptTokens([]textmodel.Message{
		{Role: textmodel.RoleSystem, Content: "Be brief."},
		{Role: textmodel.RoleUser, Content: "What is TTFT?"},
	})
	fmt.Println(len(ids))
	fmt.Printf("%q\n", textmodel.Decode(ids))
	// Output:
	// 23
	// "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nBe brief.<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nWhat is TTFT?<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n"
}
