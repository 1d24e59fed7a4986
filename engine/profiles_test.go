package engine

import (
	"strings"
	"testing"
)

func TestModelProfiles(t *testing.T) {
	// Parameter counts as published on each model card (billions).
	want := map[string]float64{
		"llama-3.2-1b": 1.24, "llama-3.2-3b": 3.21, "llama-3.1-8b": 8.03,
		"llama-3.1-70b": 70.55, "qwen2.5-7b": 7.6, "mistral-7b": 7.25,
	}
	for _, m := range ModelProfiles() {
		got := float64(m.ParamCount()) / 1e9
		if w := want[m.Name]; got < w*0.98 || got > w*1.02 {
			t.Errorf("%s: %.2fB params, card says %.2fB", m.Name, got, w)
		}
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
	}
	m := mustModel(t, "llama-3.1-8b")
	if got := m.KVBytesPerToken(); got != 128*1024 {
		t.Errorf("llama-3.1-8b KV bytes per token = %d, want 131072", got)
	}
}

func TestLookupErrorsListValidNames(t *testing.T) {
	_, err := LookupModel("gpt-5")
	if err == nil || !strings.Contains(err.Error(), "llama-3.1-8b") {
		t.Errorf("model error %v does not list valid names", err)
	}
	_, err = LookupHardware("tpu")
	if err == nil || !strings.Contains(err.Error(), "h100-sxm") {
		t.Errorf("hardware error %v does not list valid names", err)
	}
}

func TestFootprint(t *testing.T) {
	tests := []struct {
		hw, model string
		prec      Precision
		tp        int
		fits      bool
	}{
		{"h100-sxm", "llama-3.1-8b", BF16, 1, true},
		{"l4", "llama-3.1-8b", BF16, 1, true},
		{"a10g", "llama-3.1-8b", INT4, 1, true},
		{"h100-sxm", "llama-3.1-70b", BF16, 1, false},
		{"h100-sxm", "llama-3.1-70b", BF16, 2, true},
		{"h100-sxm", "llama-3.1-70b", FP8, 1, true},
		{"l4", "llama-3.1-70b", BF16, 4, false},
		{"l4", "llama-3.1-70b", INT4, 4, true},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Hardware = mustHardware(t, tt.hw)
		cfg.Model = mustModel(t, tt.model)
		cfg.Precision, cfg.TP = tt.prec, tt.tp
		f, err := cfg.Footprint()
		if (err == nil) != tt.fits {
			t.Errorf("%s %s %s tp%d: fits=%v, err=%v", tt.model, tt.prec, tt.hw, tt.tp, err == nil, err)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), "does not fit") {
			t.Errorf("unclear error: %v", err)
		}
		if err == nil {
			t.Logf("%-13s %-4s %-8s tp%d: weights %.1f GiB/GPU, KV %d tokens", tt.model, tt.prec, tt.hw, tt.tp,
				float64(f.PerGPUWeightBytes)/gib, f.KVTokens)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*Config)
		want   string
	}{
		{"tp", func(c *Config) { c.TP = 3 }, "tensor parallelism 3"},
		{"precision", func(c *Config) { c.Precision = "fp4" }, "unknown precision"},
		{"policy", func(c *Config) { c.Policy = "magic" }, "unknown policy"},
		{"seqs", func(c *Config) { c.MaxNumSeqs = 0 }, "max_num_seqs"},
		{"tokens", func(c *Config) { c.MaxNumBatchedTokens = -5 }, "max_num_batched_tokens"},
		{"util", func(c *Config) { c.GPUMemoryUtilization = 1.5 }, "gpu_memory_utilization"},
		{"wait", func(c *Config) { c.BatchWait = -1 }, "batch wait"},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		tt.mutate(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Errorf("default config invalid: %v", err)
	}
}

func TestLoadConfigs(t *testing.T) {
	hf := `{"architectures":["LlamaForCausalLM"],"model_type":"llama","hidden_size":4096,"intermediate_size":14336,
	"num_attention_heads":32,"num_hidden_layers":32,"num_key_value_heads":8,"vocab_size":128256,
	"max_position_embeddings":131072,"tie_word_embeddings":false,"rope_theta":500000.0}`
	m, err := LoadModelConfig(strings.NewReader(hf))
	if err != nil {
		t.Fatal(err)
	}
	ref := mustModel(t, "llama-3.1-8b")
	if m.ParamCount() != ref.ParamCount() || m.HeadDim != 128 || m.Name != "llama" {
		t.Errorf("loaded %+v", m)
	}
	for _, bad := range []string{`{`, `{"hidden_size":0}`, `{"num_hidden_layers":2,"hidden_size":64,"num_attention_heads":3,"num_key_value_heads":2,"intermediate_size":64,"vocab_size":100,"max_position_embeddings":128}`} {
		if _, err := LoadModelConfig(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	h, err := LoadHardwareConfig(strings.NewReader(`{"name":"b200","bf16_tflops":2250,"fp8_tflops":4500,"mem_bandwidth_gbs":8000,"memory_gib":178}`))
	if err != nil || h.Name != "b200" {
		t.Fatalf("%+v %v", h, err)
	}
	for _, bad := range []string{`{"name":"x"}`, `{"bf16_tflops":-1,"mem_bandwidth_gbs":1,"memory_gib":1}`, `{"bogus":1}`} {
		if _, err := LoadHardwareConfig(strings.NewReader(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}
