/* The console's JSON editor: a plain textarea checked in the browser before submit. JSON.parse
 * first, then the entry's JSON Schema (the subset permanent/payload.py accepts: type, enum, const,
 * properties, required, additionalProperties, items, min/max items, length, pattern, numeric bounds,
 * allOf/anyOf/oneOf/not). The server validates again; this only saves a round trip.
 * Shipped with the repo: no CDN, no inline script (a strict Content-Security-Policy holds). */
(function () {
  "use strict";

  function typeOf(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
    return typeof value; // string, boolean, object
  }

  function typeMatches(value, expected) {
    var actual = typeOf(value);
    if (expected === "number") return actual === "number" || actual === "integer";
    return actual === expected;
  }

  function equal(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function validate(value, schema, path, errors) {
    if (schema === true || schema === undefined || schema === null) return errors;
    if (schema === false) { errors.push(path + ": " + msg("nothing is allowed here")); return errors; }
    var where = path || "$";
    if (schema.type !== undefined) {
      var types = Array.isArray(schema.type) ? schema.type : [schema.type];
      if (!types.some(function (t) { return typeMatches(value, t); })) {
        errors.push(where + ": " + msg("expected") + " " + types.join(" | ") + ", " + msg("got") + " " + typeOf(value));
        return errors;
      }
    }
    if (schema.enum && !schema.enum.some(function (option) { return equal(option, value); }))
      errors.push(where + ": " + msg("must be one of") + " " + JSON.stringify(schema.enum));
    if (schema.hasOwnProperty("const") && !equal(schema.const, value))
      errors.push(where + ": " + msg("must be") + " " + JSON.stringify(schema.const));
    var kind = typeOf(value);
    if (kind === "string") {
      var length = Array.from(value).length;
      if (schema.minLength !== undefined && length < schema.minLength) errors.push(where + ": " + msg("shorter than") + " " + schema.minLength);
      if (schema.maxLength !== undefined && length > schema.maxLength) errors.push(where + ": " + msg("longer than") + " " + schema.maxLength);
      if (schema.pattern !== undefined) {
        try { if (!new RegExp(schema.pattern, "u").test(value)) errors.push(where + ": " + msg("does not match") + " " + schema.pattern); }
        catch (e) { /* a pattern JavaScript cannot read is left to the server */ }
      }
    }
    if (kind === "number" || kind === "integer") {
      if (schema.minimum !== undefined && value < schema.minimum) errors.push(where + ": " + msg("below the minimum") + " " + schema.minimum);
      if (schema.maximum !== undefined && value > schema.maximum) errors.push(where + ": " + msg("above the maximum") + " " + schema.maximum);
      if (typeof schema.exclusiveMinimum === "number" && value <= schema.exclusiveMinimum) errors.push(where + ": " + msg("must be greater than") + " " + schema.exclusiveMinimum);
      if (typeof schema.exclusiveMaximum === "number" && value >= schema.exclusiveMaximum) errors.push(where + ": " + msg("must be less than") + " " + schema.exclusiveMaximum);
      if (schema.multipleOf && Math.abs(value / schema.multipleOf - Math.round(value / schema.multipleOf)) > 1e-9) errors.push(where + ": " + msg("not a multiple of") + " " + schema.multipleOf);
    }
    if (kind === "array") {
      if (schema.minItems !== undefined && value.length < schema.minItems) errors.push(where + ": " + msg("fewer items than") + " " + schema.minItems);
      if (schema.maxItems !== undefined && value.length > schema.maxItems) errors.push(where + ": " + msg("more items than") + " " + schema.maxItems);
      if (schema.uniqueItems) {
        var seen = value.map(function (item) { return JSON.stringify(item); });
        if (new Set(seen).size !== seen.length) errors.push(where + ": " + msg("items must be unique"));
      }
      if (schema.items && !Array.isArray(schema.items))
        value.forEach(function (item, i) { validate(item, schema.items, where + "[" + i + "]", errors); });
    }
    if (kind === "object") {
      var properties = schema.properties || {};
      (schema.required || []).forEach(function (name) {
        if (!value.hasOwnProperty(name)) errors.push(where + ": " + msg("missing required property") + " " + JSON.stringify(name));
      });
      Object.keys(value).forEach(function (name) {
        if (properties.hasOwnProperty(name)) validate(value[name], properties[name], where + "." + name, errors);
        else if (schema.additionalProperties === false) errors.push(where + ": " + msg("unexpected property") + " " + JSON.stringify(name));
        else if (typeof schema.additionalProperties === "object") validate(value[name], schema.additionalProperties, where + "." + name, errors);
      });
      if (schema.minProperties !== undefined && Object.keys(value).length < schema.minProperties) errors.push(where + ": " + msg("fewer properties than") + " " + schema.minProperties);
      if (schema.maxProperties !== undefined && Object.keys(value).length > schema.maxProperties) errors.push(where + ": " + msg("more properties than") + " " + schema.maxProperties);
    }
    (schema.allOf || []).forEach(function (sub) { validate(value, sub, path, errors); });
    if (schema.anyOf && !schema.anyOf.some(function (sub) { return validate(value, sub, path, []).length === 0; }))
      errors.push(where + ": " + msg("matches none of the allowed forms"));
    if (schema.oneOf && schema.oneOf.filter(function (sub) { return validate(value, sub, path, []).length === 0; }).length !== 1)
      errors.push(where + ": " + msg("must match exactly one allowed form"));
    if (schema.not && validate(value, schema.not, path, []).length === 0) errors.push(where + ": " + msg("matches a forbidden form"));
    return errors;
  }

  var messages = {};
  function msg(text) { return messages[text] || text; }

  function readJson(id) {
    var element = id && document.getElementById(id);
    if (!element) return undefined;
    var text = (element.value !== undefined ? element.value : element.textContent).trim();
    if (!text) return undefined;
    try { return JSON.parse(text); } catch (e) { return undefined; }
  }

  function check(textarea) {
    var status = document.getElementById(textarea.id + "-status");
    var text = textarea.value.trim();
    var problems = [];
    if (text === "") {
      var required = textarea.dataset.jsonRequiredFor;  // actions that need a value, e.g. "create,update"
      var actionSelect = textarea.form && textarea.form.querySelector("select[name=action]");
      if (required && (!actionSelect || required.split(",").indexOf(actionSelect.value) >= 0))
        problems.push(msg("A value is required."));
    } else {
      var value;
      try { value = JSON.parse(text); }
      catch (e) { problems.push(msg("Not valid JSON") + ": " + e.message); }
      if (!problems.length) {
        var schemaHolder = textarea.dataset.jsonSchemaFrom;  // id of a schema textarea or json_script
        var schema = schemaHolder ? readJson(schemaHolder) : undefined;
        if (schema !== undefined) problems = validate(value, schema, "", []);
      }
    }
    if (status) {
      status.textContent = problems.length ? problems.join("; ") : (text ? msg("Valid JSON") + (textarea.dataset.jsonSchemaFrom && readJson(textarea.dataset.jsonSchemaFrom) !== undefined ? " · " + msg("matches the schema") : "") : "");
      status.className = "console-json-status " + (problems.length ? "bad" : "ok");
    }
    return problems;
  }

  function init() {
    var catalogue = document.getElementById("json-editor-messages");
    if (catalogue) { try { messages = JSON.parse(catalogue.textContent); } catch (e) { messages = {}; } }
    var editors = Array.prototype.slice.call(document.querySelectorAll("textarea[data-json-editor]"));
    editors.forEach(function (textarea) {
      textarea.addEventListener("input", function () { check(textarea); });
      check(textarea);
    });
    // The value is re-checked when its schema (the create form's schema field) changes.
    editors.forEach(function (textarea) {
      var holder = textarea.dataset.jsonSchemaFrom && document.getElementById(textarea.dataset.jsonSchemaFrom);
      if (holder && holder.tagName === "TEXTAREA") holder.addEventListener("input", function () { check(textarea); });
    });
    var forms = new Set(editors.map(function (t) { return t.form; }).filter(Boolean));
    forms.forEach(function (form) {
      form.addEventListener("submit", function (event) {
        var action = form.querySelector("select[name=action]");
        var bad = editors.filter(function (t) {
          if (t.form !== form) return false;
          if (t.dataset.jsonSkipFor && action && t.dataset.jsonSkipFor.split(",").indexOf(action.value) >= 0) return false;
          return check(t).length > 0;
        });
        if (bad.length) {
          event.preventDefault();
          bad[0].focus();
          var summary = document.getElementById("json-editor-summary");
          if (summary) { summary.hidden = false; summary.textContent = msg("Fix the JSON before submitting."); }
        }
      });
    });
  }

  window.consoleJsonValidate = function (value, schema) { return validate(value, schema, "", []); };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
