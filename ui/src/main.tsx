import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./styles.css";

// Marks the moment the start screen is interactive (read by the e2e timing).
performance.mark("labwright-script-start");
createRoot(document.getElementById("root")!).render(<App />);
