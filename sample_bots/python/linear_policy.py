"""A small linear softmax policy over the bot kit's encoding (numpy): shared by the trainer and the policy bot.

An action's score is ``features(action) @ W @ [log1p(observation), 1]``: ``W`` weighs, for every feature of
an action (the card kinds it lays, the colour it leaves, its kind; ``Encoding.action_features``), every
entry of the observation. The features mean the same in every ruleset, so one policy plays all three
houses, arcade's thousands of stacks included. The policy picks among the legal actions only.

examples/train_policy.py trains one with REINFORCE; policy_bot.py plays it.
"""
from __future__ import annotations

import json

import numpy as np

import botkit

INPUTS = botkit.SIZE + 1  # the observation, then a constant 1
VERSION = 1


class LinearPolicy:
    """Scores legal actions linearly; ``act`` picks the best one (or samples, for training)."""

    def __init__(self, weights: np.ndarray | None = None, meta: dict | None = None) -> None:
        shape = (botkit.FEATURES, INPUTS)
        self.weights = np.zeros(shape) if weights is None else np.asarray(weights, dtype=np.float64)
        if self.weights.shape != shape:
            raise ValueError(f"policy weights of shape {self.weights.shape}, expected {shape}: "
                             "trained for another version of the bot kit's encoding; train it again")
        self.meta = dict(meta or {})
        self._features: dict[int, np.ndarray] = {}  # id(encoding) -> every action's features

    @classmethod
    def load(cls, path: str) -> LinearPolicy:
        """A policy saved by ``save``."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("version") != VERSION:
                raise ValueError(f"{path}: policy format {meta.get('version')!r}, this code reads {VERSION}")
            return cls(data["weights"], meta)

    def save(self, path: str) -> None:
        np.savez_compressed(path, weights=self.weights.astype(np.float32),
                            meta=np.array(json.dumps({**self.meta, "version": VERSION})))

    def inputs(self, observation: np.ndarray) -> np.ndarray:
        """What the weights multiply: log1p of each count (all are whole numbers >= 0), then 1."""
        return np.append(np.log1p(np.asarray(observation, dtype=np.float64)), 1.0)

    def action_features(self, encoding: botkit.Encoding) -> np.ndarray:
        """Every action's features for this ruleset, one row per index (worked out once)."""
        table = self._features.get(id(encoding))
        if table is None:
            table = np.array([encoding.action_features(i) for i in range(len(encoding))], dtype=np.float64)
            self._features[id(encoding)] = table
        return table

    def probabilities(self, observation: np.ndarray, mask: np.ndarray,
                      encoding: botkit.Encoding) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The legal indices, their probabilities, their features and the inputs (what training needs)."""
        legal = np.flatnonzero(mask)
        feats = self.action_features(encoding)[legal]
        x = self.inputs(observation)
        scores = feats @ (self.weights @ x)
        scores -= scores.max()
        probs = np.exp(scores)
        probs /= probs.sum()
        return legal, probs, feats, x

    def act(self, observation: np.ndarray, mask: np.ndarray, encoding: botkit.Encoding,
            rng: np.random.Generator | None = None) -> int:
        """The index to play: the most probable legal action, or one drawn at random with ``rng``."""
        legal, probs, _, _ = self.probabilities(observation, mask, encoding)
        if rng is None:
            return int(legal[int(np.argmax(probs))])
        return int(legal[rng.choice(len(legal), p=probs)])
