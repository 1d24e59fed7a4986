package engine

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Model is a decoder-only transformer's shape, as in its Hugging Face
// config.json. The engine needs only sizes, never weights.
type Model struct {
	Name             string `json:"name"`
	NumLayers        int    `json:"num_hidden_layers"`
	HiddenSize       int    `json:"hidden_size"`
	NumHeads         int    `json:"num_attention_heads"`
	NumKVHeads       int    `json:"num_key_value_heads"`
	HeadDim          int    `json:"head_dim"`
	IntermediateSize int    `json:"intermediate_size"`
	VocabSize        int    `json:"vocab_size"`
	TiedEmbeddings   bool   `json:"tie_word_embeddings"`
	MaxContextLen    int    `json:"max_position_embeddings"`
}

// modelProfiles come from each model's published config.json on Hugging
// Face (meta-llama/Llama-3.2-1B, Llama-3.2-3B, Llama-3.1-8B, Llama-3.1-70B,
// Qwen/Qwen2.5-7B-Instruct, mistralai/Mistral-7B-Instruct-v0.3).
var modelProfiles = []Model{
	{Name: "llama-3.2-1b", NumLayers: 16, HiddenSize: 2048, NumHeads: 32, NumKVHeads: 8, HeadDim: 64, IntermediateSize: 8192, VocabSize: 128256, TiedEmbeddings: true, MaxContextLen: 131072},
	{Name: "llama-3.2-3b", NumLayers: 28, HiddenSize: 3072, NumHeads: 24, NumKVHeads: 8, HeadDim: 128, IntermediateSize: 8192, VocabSize: 128256, TiedEmbeddings: true, MaxContextLen: 131072},
	{Name: "llama-3.1-8b", NumLayers: 32, HiddenSize: 4096, NumHeads: 32, NumKVHeads: 8, HeadDim: 128, IntermediateSize: 14336, VocabSize: 128256, MaxContextLen: 131072},
	{Name: "llama-3.1-70b", NumLayers: 80, HiddenSize: 8192, NumHeads: 64, NumKVHeads: 8, HeadDim: 128, IntermediateSize: 28672, VocabSize: 128256, MaxContextLen: 131072},
	{Name: "qwen2.5-7b", NumLayers: 28, HiddenSize: 3584, NumHeads: 28, NumKVHeads: 4, HeadDim: 128, IntermediateSize: 18944, VocabSize: 152064, MaxContextLen: 32768},
	{Name: "mistral-7b", NumLayers: 32, HiddenSize: 4096, NumHeads: 32, NumKVHeads: 8, HeadDim: 128, IntermediateSize: 14336, VocabSize: 32768, MaxContextLen: 32768},
}

// ModelProfiles returns the built-in models in a stable order.
func ModelProfiles() []Model { return slices.Clone(modelProfiles) }

// ModelNames returns the built-in model names.
func ModelNames() []string {
	names := make([]string, len(modelProfiles))
	for i, m := range modelProfiles {
		names[i] = m.Name
	}
	return names
}

// LookupModel finds a built-in model by name (case-insensitive).
func LookupModel(name string) (Model, error) {
	for _, m := range modelProfiles {
		if strings.EqualFold(m.Name, name) {
			return m, nil
		}
	}
	return Model{}, fmt.Errorf("unknown model %q (valid: %s)", name, strings.Join(ModelNames(), ", "))
}

// hfConfig is the subset of a Hugging Face config.json the engine reads.
type hfConfig struct {
	Model
	NameOrPath string `json:"_name_or_path"`
	ModelType  string `json:"model_type"`
}

// LoadModelConfig reads a Hugging Face config.json. Missing head_dim is
// hidden_size/num_attention_heads and missing num_key_value_heads means
// multi-head attention, as transformers assumes.
func LoadModelConfig(r io.Reader) (Model, error) {
	var c hfConfig
	if err := json.NewDecoder(r).Decode(&c); err != nil {
		return Model{}, fmt.Errorf("model config: %w", err)
	}
	m := c.Model
	if m.Name == "" {
		m.Name = c.NameOrPath
	}
	if m.Name == "" {
		m.Name = c.ModelType
	}
	if m.Name == "" {
		m.Name = "custom-model"
	}
	if m.NumKVHeads == 0 {
		m.NumKVHeads = m.NumHeads
	}
	if m.HeadDim == 0 && m.NumHeads > 0 {
		m.HeadDim = m.HiddenSize / m.NumHeads
	}
	if err := m.Validate(); err != nil {
		return Model{}, fmt.Errorf("model config: %w", err)
	}
	return m, nil
}

// Validate reports missing or absurd sizes.
func (m Model) Validate() error {
	checks := []struct {
		name     string
		v        int
		min, max int
	}{
		{"num_hidden_layers", m.NumLayers, 1, 1000},
		{"hidden_size", m.HiddenSize, 16, 1 << 17},
		{"num_attention_heads", m.NumHeads, 1, 1024},
		{"num_key_value_heads", m.NumKVHeads, 1, 1024},
		{"head_dim", m.HeadDim, 8, 1024},
		{"intermediate_size", m.IntermediateSize, 16, 1 << 20},
		{"vocab_size", m.VocabSize, 2, 1 << 22},
		{"max_position_embeddings", m.MaxContextLen, 16, 1 << 24},
	}
	for _, c := range checks {
		if c.v < c.min || c.v > c.max {
			return fmt.Errorf("%s: %s = %d, want %d..%d", m.Name, c.name, c.v, c.min, c.max)
		}
	}
	if m.NumHeads%m.NumKVHeads != 0 {
		return fmt.Errorf("%s: num_attention_heads %d is not a multiple of num_key_value_heads %d", m.Name, m.NumHeads, m.NumKVHeads)
	}
	return nil
}

// layerParams is the weight count of one decoder layer: attention
// projections, gated MLP (gate, up, down) and two RMSNorms.
func (m Model) layerParams() int64 {
	h, q, kv := int64(m.HiddenSize), int64(m.NumHeads*m.HeadDim), int64(m.NumKVHeads*m.HeadDim)
	attn := h*q + 2*h*kv + q*h
	mlp := 3 * h * int64(m.IntermediateSize)
	return attn + mlp + 2*h
}

// embeddingParams is the input embedding table (vocab × hidden).
func (m Model) embeddingParams() int64 { return int64(m.VocabSize) * int64(m.HiddenSize) }

// ParamCount is the total parameter count, counting a tied LM head once.
func (m Model) ParamCount() int64 {
	n := int64(m.NumLayers)*m.layerParams() + m.embeddingParams() + int64(m.HiddenSize)
	if !m.TiedEmbeddings {
		n += m.embeddingParams()
	}
	return n
}

// KVBytesPerToken is the K and V cache size of one token across all layers
// in BF16, the vLLM default kv-cache dtype ("auto").
func (m Model) KVBytesPerToken() int64 {
	return 2 * int64(m.NumLayers) * int64(m.NumKVHeads) * int64(m.HeadDim) * kvBytesPerElem
}

// kvBytesPerElem: the KV cache stays BF16 whatever the weight precision.
const kvBytesPerElem = 2
