// The cardrules extension: starts `cardrules lsp` (stdio) for .cards and .rules files and, by
// default, for YAML files (the server answers only for rulesets, decks and scenarios).
// Install: `npm install` in this folder, then "Developer: Install Extension from Location...",
// or run it from VS Code with F5 (docs/editor.md).
const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("cardrules");
  const command = config.get("server.command", "cardrules");
  const selector = [{ scheme: "file", language: "cardrules" }];
  if (config.get("server.yaml", true)) {
    selector.push({ scheme: "file", language: "yaml" });
  }
  const serverOptions = { command, args: ["lsp"], transport: TransportKind.stdio };
  const clientOptions = { documentSelector: selector };
  client = new LanguageClient("cardrules", "cardrules language server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
