package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --upstream-hardware and --upstream-model-profile (a profile or a Hugging
// Face config.json) say what the server is; bad values are refused at
// start with the flag named.
func TestUpstreamDeploymentFlags(t *testing.T) {
	dir := t.TempDir()
	hf := filepath.Join(dir, "config.json")
	_ = os.WriteFile(hf, []byte(`{"_name_or_path":"my-llama","hidden_size":4096,"intermediate_size":14336,
		"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,"max_position_embeddings":131072}`), 0o600)
	bad := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"hidden_size":0}`), 0o600)
	url := []string{"--upstream-url", "http://gpu:8000/v1"}
	for _, c := range []struct {
		name   string
		args   []string
		served string
		want   string // "hardware/model" of the deployment, or an error
	}{
		{"defaults", url, "", "h100-sxm/llama-3.1-8b"},
		{"served name is a profile", url, "llama-3.2-3b", "h100-sxm/llama-3.2-3b"},
		{"profile and hardware", append([]string{"--upstream-hardware", "a100-80g", "--upstream-model-profile", "llama-3.2-3b"}, url...), "", "a100-80g/llama-3.2-3b"},
		{"hugging face config", append([]string{"--upstream-model-profile", hf}, url...), "x", "h100-sxm/my-llama"},
		{"unknown hardware", append([]string{"--upstream-hardware", "tpu"}, url...), "", "error: --upstream-hardware"},
		{"unknown profile", append([]string{"--upstream-model-profile", "gpt-9"}, url...), "", "error: --upstream-model-profile"},
		{"bad config file", append([]string{"--upstream-model-profile", bad}, url...), "", "error: --upstream-model-profile"},
		{"missing config file", append([]string{"--upstream-model-profile", filepath.Join(dir, "none.json")}, url...), "", "error: --upstream-model-profile"},
		{"does not fit", append([]string{"--upstream-hardware", "l4", "--upstream-model-profile", "llama-3.1-70b"}, url...), "", "error: --upstream-*"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := parseServeFlags(c.args, func(string) string { return "" }, io.Discard)
			if err == nil {
				cfg, derr := f.Upstream.deployment(c.served)
				if derr != nil {
					err = derr
				} else if got := cfg.Hardware.Name + "/" + cfg.Model.Name; got != c.want {
					t.Errorf("deployment %s, want %s", got, c.want)
				}
			}
			if strings.HasPrefix(c.want, "error: ") {
				if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(c.want, "error: ")) {
					t.Errorf("err %v, want one naming %s", err, strings.TrimPrefix(c.want, "error: "))
				}
			} else if err != nil {
				t.Errorf("unexpected error %v", err)
			}
		})
	}
}
