"""Original-IdeA file samples (from tests/fixtures/original-project, digest §6.2/§6.4) with
unknown keys added at every level, inlined so unit tests do no I/O."""

from __future__ import annotations

LAYOUTS_JSON = """{
  "version": 1,
  "activeId": "dd38b8ed-7199-48a6-a63f-1d1462ca6a34",
  "docFuture": {"a": [1, 2]},
  "layouts": [
    {
      "id": "dd38b8ed-7199-48a6-a63f-1d1462ca6a34",
      "name": "Default",
      "kind": "terminal",
      "layoutFuture": true,
      "tree": {
        "treeFuture": "x",
        "root": {
          "type": "split",
          "wrapperFuture": 1,
          "node": {
            "id": "2ea41e76-262d-4dc3-a674-348ceac9b543",
            "direction": "row",
            "splitFuture": null,
            "children": [
              {
                "node": {"type": "leaf", "node": {
                  "id": "14d20dcb-f243-4381-a130-2d4d3d224f42",
                  "session": "4e60d6c2-6be6-499c-a296-577ce1e5ec62",
                  "agent": "a6ced819-b893-4213-b003-9e9dc79b9641",
                  "agentWasRunning": true,
                  "conversationId": "conv-1"}},
                "weight": 1.0,
                "childFuture": "c"
              },
              {
                "node": {"type": "split", "node": {
                  "id": "8cf1c06e-2654-45a3-bf17-a9c2507da935",
                  "direction": "column",
                  "children": [
                    {"node": {"type": "leaf", "node": {
                      "id": "69dc2e23-86f5-4770-84c4-b1b4b2c25299",
                      "session": "11fbf6b4-eb62-4420-95e9-feb2ff667c43",
                      "agent": "cd0b4cf1-1bef-4fae-ade5-f0a6b49bbaf5",
                      "agentWasRunning": true}}, "weight": 1.0},
                    {"node": {"type": "leaf", "node": {
                      "id": "b9251e74-3bd5-43ee-90e5-e6bb87faab38",
                      "session": "69a3bf52-05ef-45c0-badf-26b0d8224f0e"}}, "weight": 2.5}
                  ]}},
                "weight": 1.0
              }
            ]
          }
        }
      }
    },
    {
      "id": "grid-layout",
      "name": "Grid",
      "kind": "terminal",
      "tree": {"root": {"type": "grid", "node": {
        "id": "g1", "colWeights": [1.0, 2.0], "rowWeights": [1.0, 1.0], "gridFuture": 7,
        "cells": [
          {"node": {"type": "leaf", "node": {"id": "c1"}}, "row": 0, "col": 0,
           "rowSpan": 2, "colSpan": 1, "cellFuture": "y"},
          {"node": {"type": "leaf", "node": {"id": "c2"}}, "row": 0, "col": 1,
           "rowSpan": 1, "colSpan": 1},
          {"node": {"type": "leaf", "node": {"id": "c3"}}, "row": 1, "col": 1,
           "rowSpan": 1, "colSpan": 1}
        ]}}}
    }
  ]
}"""

AGENTS_JSON = """{
  "version": 1,
  "agents": [
    {
      "agentId": "a6ced819-b893-4213-b003-9e9dc79b9641",
      "name": "Main",
      "mdPath": "agents/main.md",
      "profileId": "claude-code",
      "synchronized": false
    },
    {
      "id": "cd0b4cf1-1bef-4fae-ade5-f0a6b49bbaf5",
      "name": "Git",
      "md": "agents/git.md",
      "profileId": "664cc20c-47b8-53ad-9351-dce3c09c0de4",
      "origin": {"templateId": "t1"},
      "synchronized": true,
      "skills": ["commit-style"],
      "syncedTemplateVersion": 3,
      "futureField": {"keep": "me"}
    }
  ],
  "lastEditedBy": "original-ideai"
}"""

MAIN_ID = "a6ced819-b893-4213-b003-9e9dc79b9641"
GIT_ID = "cd0b4cf1-1bef-4fae-ade5-f0a6b49bbaf5"
MAIN_LEAF = "14d20dcb-f243-4381-a130-2d4d3d224f42"
